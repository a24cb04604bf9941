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

/** The base of each kind below: its status code and its problem title, fixed per class. */
function problem(status: number, title: string) {
  return class extends AppError {
    readonly status = status;
    readonly title = title;
  };
}

export class Invalid extends problem(400, "Invalid request") {}
export class Unauthorized extends problem(401, "Unauthorized") {}
export class Forbidden extends problem(403, "Forbidden") {}
export class NotFound extends problem(404, "Not found") {}
export class Conflict extends problem(409, "Conflict") {}
export class PayloadTooLarge extends problem(413, "Payload too large") {}
export class UnsupportedMediaType extends problem(415, "Unsupported media type") {}
/** A well-formed request that breaks a rule (last administrator, role above the caller's, expired invite). */
export class RuleBroken extends problem(422, "Rule broken") {}
export class RateLimited extends problem(429, "Too many requests") {}
export class Unavailable extends problem(503, "Service unavailable") {}
