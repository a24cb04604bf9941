/**
 * Typed errors thrown by verbs and wrappers. `lib/http/problem.ts` maps them once to problem+json;
 * nothing else decides status codes.
 */
export interface FieldError {
  /** Path into the request body, like `[2].identifier` or `data.address`. Empty for the body itself. */
  path: string;
  message: string;
}

export abstract class AppError extends Error {
  abstract readonly status: number;
  abstract readonly title: string;
  readonly errors?: FieldError[];
  readonly extra?: Record<string, unknown>;
  readonly headers?: Record<string, string>;
  constructor(
    detail: string,
    opts: { errors?: FieldError[]; extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.errors = opts.errors;
    this.extra = opts.extra;
    this.headers = opts.headers;
  }
  get type(): string {
    return `https://relay.dev/problems/${this.title.toLowerCase().replace(/[^a-z]+/g, "-")}`;
  }
}

export class Invalid extends AppError {
  readonly status = 400;
  readonly title = "Invalid request";
}
export class Unauthorized extends AppError {
  readonly status = 401;
  readonly title = "Unauthorized";
}
export class Forbidden extends AppError {
  readonly status = 403;
  readonly title = "Forbidden";
}
export class NotFound extends AppError {
  readonly status = 404;
  readonly title = "Not found";
}
export class Conflict extends AppError {
  readonly status = 409;
  readonly title = "Conflict";
}
export class PayloadTooLarge extends AppError {
  readonly status = 413;
  readonly title = "Payload too large";
}
export class UnsupportedMediaType extends AppError {
  readonly status = 415;
  readonly title = "Unsupported media type";
}
/** A well-formed request that breaks a rule (last administrator, role above the caller's, expired invite). */
export class RuleBroken extends AppError {
  readonly status = 422;
  readonly title = "Rule broken";
}
export class RateLimited extends AppError {
  readonly status = 429;
  readonly title = "Too many requests";
}
export class Unavailable extends AppError {
  readonly status = 503;
  readonly title = "Service unavailable";
}
