/**
 * One error class for the whole service, with stable named codes (as @solana/kit does) and a
 * `retryable` property (as ponder does). API codes map to RFC 9457 problems in server/api;
 * transport codes are what chain sources throw and the loader decides on.
 */
export const ERROR_STATUS = {
  invalid_address: 400,
  unknown_chain: 400,
  invalid_limit: 400,
  invalid_cursor: 400,
  invalid_request: 400,
  unauthorized: 401,
  not_found: 404,
  method_not_allowed: 405,
  rate_limited: 429,
  internal: 500,
  upstream_unavailable: 502,
  overloaded: 503,
  // Transport and decoding codes (chain sources); they surface to clients as upstream_unavailable.
  rpc_http_error: 502,
  rpc_rate_limited: 502,
  rpc_timeout: 502,
  rpc_malformed_response: 502,
  rpc_error: 502,
  config_invalid: 500,
} as const;

export type HistoryErrorCode = keyof typeof ERROR_STATUS;

export interface HistoryErrorOptions {
  cause?: unknown;
  retryable?: boolean;
  /** Seconds the peer asked us to wait (Retry-After), when it said. */
  retryAfter?: number;
  context?: Record<string, unknown>;
}

const RETRYABLE_BY_DEFAULT: ReadonlySet<HistoryErrorCode> = new Set([
  'rpc_http_error',
  'rpc_rate_limited',
  'rpc_timeout',
  'rpc_malformed_response',
  'rate_limited',
  'overloaded',
]);

export class HistoryError extends Error {
  override readonly name = 'HistoryError';
  readonly code: HistoryErrorCode;
  readonly retryable: boolean;
  readonly retryAfter?: number;
  readonly context: Record<string, unknown>;

  constructor(code: HistoryErrorCode, message: string, options: HistoryErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.retryable = options.retryable ?? RETRYABLE_BY_DEFAULT.has(code);
    this.retryAfter = options.retryAfter;
    this.context = options.context ?? {};
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export function isHistoryError(e: unknown, code?: HistoryErrorCode): e is HistoryError {
  return e instanceof HistoryError && (code === undefined || e.code === code);
}

/** An RPC URL without credentials (user:pass, and query strings that often carry API keys). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    if (u.search) u.search = '?…';
    // Path segments that look like keys (long opaque tokens) are hidden too: many providers put the key there.
    u.pathname = u.pathname
      .split('/')
      .map((seg) => (seg.length >= 20 && /^[A-Za-z0-9_-]+$/.test(seg) ? '…' : seg))
      .join('/');
    return u.toString();
  } catch {
    return '<invalid url>';
  }
}
