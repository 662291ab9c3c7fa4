/**
 * The error body (spec §7: "not shown"). Assumed `{ error, message }`; parsed leniently because
 * a real provider may send anything, and whatever it sends is kept in the failure's details.
 */
import { z } from 'zod';

export const providerErrorBodySchema = z.object({
  error: z.string(),
  message: z.string().optional(),
});
export type ProviderErrorBody = z.infer<typeof providerErrorBodySchema>;

/** The "Invalid authorization response" of §5.1 and §7 (status code not shown; 401 assumed). */
export const invalidAuthorizationError = 'invalid_authorization';
