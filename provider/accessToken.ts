/**
 * The token endpoint (spec §4.1). The form fields are the spec's; the response field names are
 * not shown and follow RFC 6749 §5.1 (assumption recorded in docs/provider-assumptions.md).
 */
import { z } from 'zod';

export const tokenRequestFormSchema = z.object({
  grant_type: z.literal('client_credentials'),
  scope: z.string().min(1),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
});
export type TokenRequestForm = z.infer<typeof tokenRequestFormSchema>;

export const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().refine((t) => t.toLowerCase() === 'bearer', 'token_type must be Bearer'),
  expires_in: z.number().int().positive(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** The scope of §4.1/§5.6: the API address followed by `/.default`. */
export function tokenScope(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/.default`;
}
