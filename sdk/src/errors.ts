/** One bad field of a request, as the API names it (`identifier[0].external_id`). */
export interface FieldError {
  path: string;
  message: string;
}

/** Every error the SDK throws. `status` is 0 when no HTTP answer came back. */
export class RelayError extends Error {
  readonly status: number;
  readonly type?: string;
  readonly detail?: string;
  /** The problem's `errors[]`: each invalid field with its path. */
  readonly errors: FieldError[];
  readonly requestId?: string;
  readonly body?: unknown;

  constructor(
    message: string,
    opts: {
      status?: number;
      type?: string;
      detail?: string;
      errors?: FieldError[];
      requestId?: string;
      body?: unknown;
      cause?: unknown;
    } = {},
  ) {
    super(message, opts.cause !== undefined ? { cause: opts.cause } : undefined);
    this.name = new.target.name;
    this.status = opts.status ?? 0;
    this.type = opts.type;
    this.detail = opts.detail;
    this.errors = opts.errors ?? [];
    this.requestId = opts.requestId;
    this.body = opts.body;
  }
}

/** The request never got an answer (DNS, refused connection, reset, timeout), after every retry. */
export class RelayNetworkError extends RelayError {}
/** 400/413/415/422: the input was refused; `errors` names each field. Never retried. */
export class RelayValidationError extends RelayError {}
/** 401/403: the key is missing, unknown, revoked, or its role is too low. */
export class RelayAuthError extends RelayError {}
/** 404: a record named by the request does not exist. */
export class RelayNotFoundError extends RelayError {}
/** 409: the identifiers name two different records; nothing was written. */
export class RelayConflictError extends RelayError {}
/** 429 after every retry; `retryAfter` in seconds. */
export class RelayRateLimitError extends RelayError {
  retryAfter?: number;
}
/** 5xx after every retry (503 when the database is down). */
export class RelayServerError extends RelayError {}

export function errorFor(
  status: number,
  problem: Record<string, unknown> | undefined,
  requestId: string | undefined,
): RelayError {
  const detail = typeof problem?.detail === "string" ? problem.detail : undefined;
  const opts = {
    status,
    type: typeof problem?.type === "string" ? problem.type : undefined,
    detail,
    errors: Array.isArray(problem?.errors) ? (problem.errors as FieldError[]) : [],
    requestId,
    body: problem,
  };
  const message = `Relay answered ${status}${detail ? `: ${detail}` : ""}`;
  if (status === 401 || status === 403) return new RelayAuthError(message, opts);
  if (status === 404) return new RelayNotFoundError(message, opts);
  if (status === 409) return new RelayConflictError(message, opts);
  if (status === 429) return new RelayRateLimitError(message, opts);
  if (status >= 500) return new RelayServerError(message, opts);
  return new RelayValidationError(message, opts);
}
