/** An error that already knows its HTTP answer: status, stable code, message for the caller. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** What the log may say of an unexpected cause (never sent to the caller). */
    readonly logDetail?: string,
  ) {
    super(message);
  }
}
