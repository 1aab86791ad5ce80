/** Every non-2xx answer of the service is one of these, sent as {"error": {"code", "message"}}. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra response headers, e.g. Retry-After on 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (code: string, message: string) => new ApiError(400, code, message);
export const unsupportedMedia = (message: string) =>
  new ApiError(415, 'unsupported_media_type', message);
export const undecodableMedia = (message: string) =>
  new ApiError(422, 'undecodable_media', message);
export const tooLarge = (code: string, message: string) => new ApiError(413, code, message);
