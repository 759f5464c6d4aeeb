/**
 * One error class for the whole service, with stable named codes (as @solana/kit does) and a
 * `retryable` property (as ponder does). What a code means to an HTTP client (its status) is
 * decided in one place, server/api/problem.ts; chain sources and the loader decide on codes.
 */
/** The codes that say the request itself was wrong (the client's fault). */
const REQUEST_FAULT_CODES = [
  'invalid_address',
  'unknown_chain',
  'invalid_limit',
  'invalid_cursor',
  /** An unknown value of a parameter with a fixed set (`include`, decisions.md "Errors"). */
  'invalid_parameter',
  'invalid_request',
  'unauthorized',
  'not_found',
  'method_not_allowed',
] as const;

/** Transport and decoding codes (chain sources); they surface to clients as upstream_unavailable. */
const TRANSPORT_FAULT_CODES = [
  'rpc_http_error',
  'rpc_rate_limited',
  'rpc_timeout',
  'rpc_malformed_response',
  'rpc_error',
  /** A stored walk position a chain source cannot read (the same code on every chain). */
  'invalid_position',
] as const;

export const HISTORY_ERROR_CODES = [
  ...REQUEST_FAULT_CODES,
  // The service.
  'rate_limited',
  'internal',
  'upstream_unavailable',
  'overloaded',
  /** An export asked of a history still loading (decisions.md "PnL and exports"): retry later. */
  'history_incomplete',
  /** The database does not answer (restarting, unreachable): retry after a few seconds. */
  'store_unavailable',
  /** A feature this server's operator has not set up (webhooks without WEBHOOK_SECRET_KEY). */
  'not_configured',
  'config_invalid',
  ...TRANSPORT_FAULT_CODES,
  /** This instance's lease on a wallet was taken over: its walk stops, nothing it had not stored is written (never shown to clients). */
  'lease_lost',
] as const;

export type HistoryErrorCode = (typeof HISTORY_ERROR_CODES)[number];

const REQUEST_FAULTS: ReadonlySet<HistoryErrorCode> = new Set(REQUEST_FAULT_CODES);

/** True for the codes that say the request was wrong (the client's fault), not the service or a chain. */
export function isRequestFault(code: HistoryErrorCode): boolean {
  return REQUEST_FAULTS.has(code);
}

const TRANSPORT_FAULTS: ReadonlySet<HistoryErrorCode> = new Set(TRANSPORT_FAULT_CODES);

/** True for a chain source's transport or decoding code (shown to clients as upstream_unavailable). */
export function isTransportFault(code: HistoryErrorCode): boolean {
  return TRANSPORT_FAULTS.has(code);
}

/** True for the codes that say a chain's endpoint failed (what clients see as upstream_unavailable). */
export function isUpstreamFault(code: HistoryErrorCode): boolean {
  return code === 'upstream_unavailable' || TRANSPORT_FAULTS.has(code);
}

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

/**
 * Marks a HistoryError by a registry symbol rather than by its class. The tests and benchmarks
 * run the built route files in-process beside the source modules (two copies of this module in
 * one process), and an error thrown by one copy must still be recognised by the other's
 * `instanceof` and `isHistoryError`.
 */
const BRAND = Symbol.for('wallet-history.HistoryError');

export class HistoryError extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  override readonly name = 'HistoryError';
  readonly [BRAND] = true;
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
}

export function isHistoryError(e: unknown, code?: HistoryErrorCode): e is HistoryError {
  return e instanceof HistoryError && (code === undefined || e.code === code);
}

/**
 * An RPC URL as logs and errors may show it: no user:pass, no query string (providers put API keys
 * there), and path segments that look like keys (20+ opaque characters) replaced by `…`. Written
 * out by hand, not through URL.toString(), which would percent-encode the `…` (`%E2%80%A6`).
 */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    const path = u.pathname
      .split('/')
      .map((seg) => (seg.length >= 20 && /^[A-Za-z0-9_-]+$/.test(seg) ? '…' : seg))
      .join('/');
    return `${u.protocol}//${u.host}${path === '/' ? '' : path}${u.search ? '?…' : ''}`;
  } catch {
    return '<invalid url>';
  }
}
