/** Error answers of the simulated API, in the assumed body shape `{ error, message }` (spec §7). */
import type { Response } from 'express';
import type { z } from 'zod';
import { describeIssues } from '../provider';

export function sendError(
  res: Response,
  status: number,
  error: string,
  message: string,
  extra: Record<string, unknown> = {},
): void {
  res.status(status).json({ error, message, ...extra });
}

export function sendValidationError(res: Response, zodError: z.ZodError): void {
  const problems = describeIssues(zodError);
  sendError(res, 400, 'validation_error', problems.join('; '), { problems });
}
