import {
  ERROR_STATUS,
  ErrorBodyLenient,
  type ErrorCode,
  type ResultLenient,
  type RunLenient,
} from '@webdata/contract';
import type { z } from 'zod';
import { redactDeep } from './internal/redact.js';

/**
 * The `code` of each error this client makes itself (the server's codes, in
 * `ERROR_STATUS` of `@webdata/contract`, are on {@link ApiError}), with what
 * it means. Codes are stable: branch on them (or on the class) and log them;
 * messages are for people and may change.
 *
 * @example
 * ```ts
 * if (error instanceof WebDataError && error.code === 'run_failed') retryLater(error);
 * CLIENT_ERROR_CODES.connection_failed; // 'The request got no HTTP answer: …'
 * ```
 */
export const CLIENT_ERROR_CODES = {
  connection_failed:
    'The request got no HTTP answer: refused, reset or dropped connection, DNS failure (ConnectionError; systemCode says which).',
  timeout: "A request took longer than its time-out, or the caller's signal timed out (TimeoutError).",
  aborted: 'The caller aborted the call through its AbortSignal (AbortError).',
  invalid_response:
    'A 2xx answer the contract does not allow: not JSON, a missing field, a cursor sent twice (ResponseValidationError).',
  invalid_request:
    "A request the contract refuses, caught before it was sent: the server's code for the same refusal (RequestValidationError).",
  run_failed: 'The run ended failed (RunFailedError; run.error.code says why).',
  run_not_finished: 'The results of a run still queued or running were asked for (RunNotFinishedError).',
  run_timeout: "The run did not finish within the caller's deadlineMs (RunTimeoutError).",
  invalid_result_data: "A result's data does not parse with the caller's zod schema (ResultDataError).",
  stream_ended: 'A stream ended before it gave what it was for: a run, or a value (WebDataError).',
  internal: 'A bug in this client; please report it (WebDataError).',
} as const;

/** The code of an error this client makes itself: a key of {@link CLIENT_ERROR_CODES}. */
export type ClientErrorCode = keyof typeof CLIENT_ERROR_CODES;

/**
 * Every `code` a {@link WebDataError} can carry: the client's own
 * ({@link ClientErrorCode}), the contract's (`ErrorCode`: `not_found`,
 * `rate_limited`, …), or, on an {@link ApiError}, whatever string a foreign
 * server sent (`http_<status>` when it sent none).
 */
export type WebDataErrorCode = ClientErrorCode | ErrorCode | (string & {});

/**
 * The root of every error this client throws or sends down a stream, so one
 * `instanceof WebDataError` tells the client's failures from a caller's own
 * bugs. Every one has a stable `code` ({@link WebDataErrorCode}).
 *
 * @example
 * ```ts
 * try {
 *   await client.runs.get('run_missing');
 * } catch (error) {
 *   if (error instanceof WebDataError) console.error(error.code, error.message); // not_found …
 * }
 * ```
 */
export class WebDataError extends Error {
  override name = 'WebDataError';
  /** Stable and documented: a key of {@link CLIENT_ERROR_CODES}, or the server's error code. */
  readonly code: WebDataErrorCode;
  constructor(message: string, options: { code?: WebDataErrorCode; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code ?? 'internal';
  }
}

/**
 * What the server said, as {@link errorFromResponse} reads it.
 *
 * @example
 * ```ts
 * const error = new NotFoundError({ status: 404, code: 'not_found', message: 'no such run' });
 * ```
 */
export interface ApiErrorInit {
  status: number;
  code: string;
  message: string;
  requestId?: string | undefined;
  details?: unknown[] | undefined;
  /** The parsed error body, or the raw text when it was not JSON. */
  body?: unknown;
  /** Delay the server asked for (`Retry-After`), in milliseconds. */
  retryAfterMs?: number | undefined;
}

/**
 * The server answered with a non-2xx status. `code` is the contract's error
 * code (`not_found`, `rate_limited`, …) or whatever string a foreign server sent;
 * `requestId` is the server's `request_id` / `x-request-id`, worth quoting in a bug report.
 *
 * @example
 * ```ts
 * try {
 *   await client.runs.cancel(id);
 * } catch (error) {
 *   if (error instanceof ApiError && error.code === 'conflict') console.log('already finished');
 *   else throw error;
 * }
 * ```
 */
export class ApiError extends WebDataError {
  override name = 'ApiError';
  readonly status: number;
  /** The server's error code: one of the contract's (`ErrorCode`), or a foreign server's own string. */
  declare readonly code: ErrorCode | (string & {});
  readonly requestId: string | undefined;
  readonly details: unknown[] | undefined;
  readonly body: unknown;
  readonly retryAfterMs: number | undefined;

  constructor(init: ApiErrorInit) {
    super(
      `${init.status} ${init.code}: ${init.message}${init.requestId ? ` (request ${init.requestId})` : ''}`,
      { code: init.code },
    );
    this.status = init.status;
    this.requestId = init.requestId;
    this.details = init.details;
    this.body = init.body;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * 400 `invalid_request`: the body or parameters failed validation; `details` lists each issue.
 *
 * @example
 * ```ts
 * await client.runs.list().catch((e) => { if (e instanceof BadRequestError) console.log(e.details); });
 * ```
 */
export class BadRequestError extends ApiError {
  override name = 'BadRequestError';
}
/**
 * 401 `unauthorized`: the API key is missing or unknown. The message never contains the key.
 *
 * @example
 * ```ts
 * await client.runs.list().catch((e) => { if (e instanceof AuthenticationError) console.log('check WEBDATA_API_KEY'); });
 * ```
 */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
}
/**
 * 403: not allowed (a signed URL that expired or was altered).
 *
 * @example
 * ```ts
 * if (error instanceof PermissionDeniedError) console.log('ask for a fresh signed URL');
 * ```
 */
export class PermissionDeniedError extends ApiError {
  override name = 'PermissionDeniedError';
}
/**
 * 404 `not_found`: no such run, result or screenshot for this key.
 *
 * @example
 * ```ts
 * const run = await client.runs.get(id).catch((e) => (e instanceof NotFoundError ? null : Promise.reject(e)));
 * ```
 */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}
/**
 * 409 `conflict`: the action is not allowed in the run's state (cancel a finished run, retry a running one).
 *
 * @example
 * ```ts
 * await client.runs.cancel(id).catch((e) => { if (!(e instanceof ConflictError)) throw e; });
 * ```
 */
export class ConflictError extends ApiError {
  override name = 'ConflictError';
}
/**
 * 413 `payload_too_large`: the request body is over the server's size limit.
 *
 * @example
 * ```ts
 * if (error instanceof PayloadTooLargeError) console.log('send fewer URLs per run');
 * ```
 */
export class PayloadTooLargeError extends ApiError {
  override name = 'PayloadTooLargeError';
}
/**
 * 422 `unprocessable_url`: a URL the server may not fetch (scheme, private address, policy).
 *
 * @example
 * ```ts
 * if (error instanceof UnprocessableUrlError) console.log(error.details);
 * ```
 */
export class UnprocessableUrlError extends ApiError {
  override name = 'UnprocessableUrlError';
}
/**
 * 429 `rate_limited`: over the key's rate. `retryAfterMs` says when to come back;
 * the client already waited and retried before throwing this.
 *
 * @example
 * ```ts
 * if (error instanceof RateLimitError) await new Promise((r) => setTimeout(r, error.retryAfterMs ?? 1000));
 * ```
 */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
}
/**
 * 5xx: the server failed (`internal`) or is shutting down or overloaded (`unavailable`).
 *
 * @example
 * ```ts
 * if (error instanceof InternalServerError) console.error('server error', error.requestId);
 * ```
 */
export class InternalServerError extends ApiError {
  override name = 'InternalServerError';
}
/**
 * 503 `unavailable`: shutting down or overloaded; `retryAfterMs` may say when to come back.
 *
 * @example
 * ```ts
 * if (error instanceof ServiceUnavailableError) console.log('try again in', error.retryAfterMs, 'ms');
 * ```
 */
export class ServiceUnavailableError extends InternalServerError {
  override name = 'ServiceUnavailableError';
}

/**
 * The request never got an HTTP answer: refused, reset or dropped connection,
 * DNS failure. `code` is `connection_failed`; `systemCode` is the underlying
 * system or undici code (`ECONNREFUSED`, `UND_ERR_SOCKET`) when there is one.
 *
 * @example
 * ```ts
 * if (error instanceof ConnectionError) console.log('is the server up?', error.systemCode);
 * ```
 */
export class ConnectionError extends WebDataError {
  override name = 'ConnectionError';
  declare readonly code: 'connection_failed';
  /** The system or undici code of the failure (`ECONNREFUSED`, `UND_ERR_SOCKET`), when known. */
  readonly systemCode: string | undefined;
  constructor(message: string, options: { systemCode?: string | undefined; cause?: unknown } = {}) {
    super(message, { code: 'connection_failed', cause: options.cause });
    this.systemCode = options.systemCode;
  }
}

/**
 * A request took longer than its time-out (`timeoutMs`, plus the long-poll
 * wait), or the caller's `signal` timed out (`AbortSignal.timeout()`; then
 * `cause` is the signal's reason).
 *
 * @example
 * ```ts
 * const client = createClient({ baseUrl, apiKey, timeoutMs: 5_000 });
 * await client.runs.list().catch((e) => { if (e instanceof TimeoutError) console.log('slow server'); });
 * ```
 */
export class TimeoutError extends WebDataError {
  override name = 'TimeoutError';
  declare readonly code: 'timeout';
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: 'timeout', cause: options.cause });
  }
}

/**
 * The caller aborted the call through its `AbortSignal`; `cause` is the
 * signal's reason (`controller.abort(reason)`). A signal that timed out is a
 * {@link TimeoutError} instead.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const pending = client.runs.list({}, { signal: controller.signal });
 * controller.abort();
 * await pending.catch((e) => console.log(e instanceof AbortError)); // true
 * ```
 */
export class AbortError extends WebDataError {
  override name = 'AbortError';
  declare readonly code: 'aborted';
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: 'aborted', cause: options.cause });
  }
}

/**
 * A 2xx answer whose body is not what the contract (read leniently) says:
 * malformed JSON, or a shape missing a field every server must send.
 * `issues` are zod's, with their paths.
 *
 * @example
 * ```ts
 * if (error instanceof ResponseValidationError) console.log(error.issues.map((i) => i.path.join('.')));
 * ```
 */
export class ResponseValidationError extends WebDataError {
  override name = 'ResponseValidationError';
  declare readonly code: 'invalid_response';
  readonly issues: z.core.$ZodIssue[];
  readonly status: number;
  readonly requestId: string | undefined;
  constructor(
    message: string,
    init: { status: number; issues?: z.core.$ZodIssue[]; requestId?: string | undefined; cause?: unknown },
  ) {
    super(message, { code: 'invalid_response', cause: init.cause });
    this.issues = init.issues ?? [];
    this.status = init.status;
    this.requestId = init.requestId;
  }
}

/**
 * A request body the contract refuses, caught before anything is sent. The
 * message names the first issue where the server's 400 would
 * (`invalid crawl request: urls.0: must be an absolute http or https URL (and 1 more)`);
 * `issues` has them all, with their paths.
 *
 * @example
 * ```ts
 * client.extract({ urls: ['ftp://x'] } as never).subscribe({ error: (e) => console.log(e instanceof RequestValidationError) });
 * ```
 */
export class RequestValidationError extends WebDataError {
  override name = 'RequestValidationError';
  /** `invalid_request`, the code the server answers the same refusal with (400). */
  declare readonly code: 'invalid_request';
  readonly issues: z.core.$ZodIssue[];
  constructor(message: string, issues: z.core.$ZodIssue[]) {
    super(message, { code: 'invalid_request' });
    this.issues = issues;
  }

  /**
   * The error for a `what` request (`crawl`, `search`) refused with `issues`:
   * the first one as `path: message`, and how many more.
   */
  static of(what: string, issues: z.core.$ZodIssue[]): RequestValidationError {
    const [first, ...rest] = issues;
    const where = first ? `: ${first.path.join('.') || '(root)'}: ${first.message}` : '';
    const more = rest.length > 0 ? ` (and ${rest.length} more)` : '';
    return new RequestValidationError(`invalid ${what} request${where}${more}`, issues);
  }
}

/**
 * The run ended in `failed`. `run` is its last snapshot; `run.error` says why
 * when the server says. A run stream that saw the run fail also reads its
 * first failed result (say, when every page failed: `all_items_failed`):
 * `firstFailedResult`, and the message ends with why that page failed. Every
 * failed page is in `client.runs.results(error.run.id, { status: 'failed' })`.
 *
 * @example
 * ```ts
 * client.crawl({ urls }).subscribe({
 *   error: (e) => {
 *     if (e instanceof RunFailedError) console.error(e.run.error?.code, e.firstFailedResult?.error?.code);
 *   },
 * });
 * ```
 */
export class RunFailedError extends WebDataError {
  override name = 'RunFailedError';
  /** `run_failed`; why is `run.error.code` (say `all_items_failed`). */
  declare readonly code: 'run_failed';
  readonly run: RunLenient;
  /** The run's first failed result, when it has one (its `error` says why that page failed). */
  readonly firstFailedResult: ResultLenient | undefined;
  constructor(run: RunLenient, firstFailedResult?: ResultLenient) {
    const reason = run.error ? `: ${run.error.code}${run.error.message ? ` ${run.error.message}` : ''}` : '';
    const pageError = firstFailedResult?.error;
    const page = pageError
      ? ` (first: ${firstFailedResult.url}: ${pageError.code}${pageError.message ? ` ${pageError.message}` : ''})`
      : '';
    super(`run ${run.id} failed${reason}${page}`, { code: 'run_failed' });
    this.run = run;
    this.firstFailedResult = firstFailedResult;
  }
}

/**
 * The results of a run that is still queued or running were asked for: they
 * would be only what is done so far. Wait for the run (`collectRun`,
 * `runs.follow`), or ask for them on purpose with `{ unfinished: 'read' }`.
 *
 * @example
 * ```ts
 * const results = await client.runs.results(id).toArray().catch(async (e) => {
 *   if (!(e instanceof RunNotFinishedError)) throw e;
 *   return (await collectRun(client.runs.follow(id))).results;
 * });
 * ```
 */
export class RunNotFinishedError extends WebDataError {
  override name = 'RunNotFinishedError';
  declare readonly code: 'run_not_finished';
  readonly run: RunLenient;
  constructor(run: RunLenient) {
    super(
      `run ${run.id} is ${run.status}: its results are not all there yet (wait for it, or pass { unfinished: 'read' })`,
      { code: 'run_not_finished' },
    );
    this.run = run;
  }
}

/**
 * The run did not reach a terminal status within the caller's `deadlineMs`.
 * Carries the run id (undefined if creation itself did not answer in time) and
 * the last snapshot seen. The run itself goes on unless `cancelOnUnsubscribe` was asked for.
 *
 * @example
 * ```ts
 * client.deepCrawl({ url }, { deadlineMs: 60_000 }).subscribe({
 *   error: (e) => { if (e instanceof RunTimeoutError) console.log('still running:', e.runId); },
 * });
 * ```
 */
export class RunTimeoutError extends WebDataError {
  override name = 'RunTimeoutError';
  declare readonly code: 'run_timeout';
  readonly runId: string | undefined;
  readonly run: RunLenient | undefined;
  constructor(runId: string | undefined, deadlineMs: number, run?: RunLenient) {
    super(`run ${runId ?? '(not created yet)'} did not finish within ${deadlineMs} ms`, {
      code: 'run_timeout',
    });
    this.runId = runId;
    this.run = run;
  }
}

/**
 * A result's `data` that does not parse with the caller's zod schema. Reported
 * as an `invalid-result` event (or as the stream's error with
 * `onInvalidResult: 'error'`), never passed on as if it were typed.
 *
 * @example
 * ```ts
 * if (event.type === 'invalid-result') console.warn(event.error.resultId, event.error.issues);
 * ```
 */
export class ResultDataError extends WebDataError {
  override name = 'ResultDataError';
  declare readonly code: 'invalid_result_data';
  readonly resultId: string;
  readonly issues: z.core.$ZodIssue[];
  constructor(resultId: string, issues: z.core.$ZodIssue[]) {
    const first = issues[0];
    super(
      `result ${resultId} data does not match the schema${first ? `: ${first.path.join('.') || '(root)'} ${first.message}` : ''}`,
      { code: 'invalid_result_data' },
    );
    this.resultId = resultId;
    this.issues = issues;
  }
}

const STATUS_CLASSES: Record<number, new (init: ApiErrorInit) => ApiError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  422: UnprocessableUrlError,
  429: RateLimitError,
  503: ServiceUnavailableError,
};

/**
 * Readable fallbacks for a foreign server's body that is not the contract's
 * error shape: the contract's code for each status (`ERROR_STATUS` read backwards).
 */
const DEFAULT_CODES: ReadonlyMap<number, string> = new Map(
  Object.entries(ERROR_STATUS).map(([code, status]) => [status as number, code]),
);

/**
 * The one place an HTTP error answer becomes an error object: reads the
 * contract's error body leniently (any code string, extra fields kept), falls
 * back to the status for foreign bodies, and picks the class by status.
 * `redact` scrubs secrets (the API key) from anything the server echoed.
 *
 * @example
 * ```ts
 * const error = errorFromResponse({ status: 404, body: { error: { code: 'not_found', message: 'no run' } } });
 * error instanceof NotFoundError; // true
 * ```
 */
export function errorFromResponse(input: {
  status: number;
  body: unknown;
  requestId?: string | undefined;
  retryAfterMs?: number | undefined;
  redact?: (text: string) => string;
}): ApiError {
  const redact = input.redact ?? ((text: string) => text);
  const parsed = ErrorBodyLenient.safeParse(input.body);
  let code = DEFAULT_CODES.get(input.status) ?? (input.status >= 500 ? 'internal' : `http_${input.status}`);
  let message = `HTTP ${input.status}`;
  let details: unknown[] | undefined;
  let requestId = input.requestId;
  if (parsed.success) {
    code = parsed.data.error.code;
    message = parsed.data.error.message ?? message;
    details = parsed.data.error.details;
    requestId = parsed.data.error.request_id ?? requestId;
  } else if (typeof input.body === 'string' && input.body.trim() !== '') {
    message = `${message}: ${input.body.trim().slice(0, 200)}`;
  }
  const Class = STATUS_CLASSES[input.status] ?? (input.status >= 500 ? InternalServerError : ApiError);
  return new Class({
    status: input.status,
    code: redact(code),
    message: redact(message),
    requestId,
    details: details ? (redactDeep(details, redact) as unknown[]) : undefined,
    body: redactDeep(input.body, redact),
    retryAfterMs: input.retryAfterMs,
  });
}
