/** Every answer of the API: `{code, data, msg}`; code 0 means success. */
export interface Envelope<T> {
  code: number;
  data: T;
  msg: string;
}

/** Error codes carried in `code`; each maps to one HTTP status on the server. */
export const ErrorCode = {
  OK: 0,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA: 415,
  TOO_MANY: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];
