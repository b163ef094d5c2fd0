import { ErrorCode, Msg } from '@studio/contract';

/** A failure a person can act on: its message is shown to them as is. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: number = status,
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (msg: string = Msg.badRequest, data?: unknown) =>
  new AppError(400, msg, ErrorCode.BAD_REQUEST, data ?? null);
export const unauthorized = (msg: string = Msg.notLoggedIn) => new AppError(401, msg, ErrorCode.UNAUTHORIZED);
export const forbidden = (msg: string = Msg.forbiddenStore) => new AppError(403, msg, ErrorCode.FORBIDDEN);
export const notFound = (what: string) => new AppError(404, Msg.notFound(what), ErrorCode.NOT_FOUND);
export const conflict = (msg: string, data?: unknown) => new AppError(409, msg, ErrorCode.CONFLICT, data ?? null);
export const tooMany = (msg: string) => new AppError(429, msg, ErrorCode.TOO_MANY);
