/**
 * The server's counters in the Prometheus text format (`GET /metrics`), written here rather than
 * pulled from a library: a dozen series, counted where they happen, and read at scrape time for
 * what already keeps its own count (loaders, sources' RPC statistics).
 */

type Labels = Record<string, string>;

const key = (name: string, labels: Labels) =>
  `${name}{${Object.entries(labels)
    .map(([k, v]) => `${k}="${v.replace(/["\\\n]/g, '_')}"`)
    .join(',')}}`;

export interface Metrics {
  /** A /v1 answer: its route (the path's shape, never an address) and status. */
  request(route: string, status: number): void;
  /** A problem answered, by its code. */
  problem(code: string): void;
  streamOpened(): void;
  streamClosed(): void;
  /** Trades written to a client (the count metering records). */
  delivered(count: number): void;
  /** The exposition text; `extra` adds series read at scrape time. */
  render(extra: { name: string; help: string; type: 'counter' | 'gauge'; values: [Labels, number][] }[]): string;
}

export function createMetrics(): Metrics {
  const counters = new Map<string, number>();
  let openStreams = 0;
  const add = (name: string, labels: Labels, n = 1) => {
    const k = key(name, labels);
    counters.set(k, (counters.get(k) ?? 0) + n);
  };
  const HELP: Record<string, [string, 'counter' | 'gauge']> = {
    wth_http_requests_total: ['/v1 requests answered, by route and status', 'counter'],
    wth_problems_total: ['problem answers, by code', 'counter'],
    wth_trades_delivered_total: ['trades written to clients (as metered)', 'counter'],
  };
  return {
    request: (route, status) => add('wth_http_requests_total', { route, status: String(status) }),
    problem: (code) => add('wth_problems_total', { code }),
    streamOpened: () => void openStreams++,
    streamClosed: () => void openStreams--,
    delivered: (n) => add('wth_trades_delivered_total', {}, n),
    render(extra) {
      const out: string[] = [];
      for (const [name, [help, type]] of Object.entries(HELP)) {
        out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
        let any = false;
        for (const [k, v] of counters) {
          if (k.startsWith(name + '{')) {
            out.push(`${k.replace('{}', '')} ${v}`);
            any = true;
          }
        }
        if (!any && name === 'wth_trades_delivered_total') out.push(`${name} 0`);
      }
      out.push('# HELP wth_open_streams NDJSON streams open now', '# TYPE wth_open_streams gauge', `wth_open_streams ${openStreams}`);
      for (const e of extra) {
        out.push(`# HELP ${e.name} ${e.help}`, `# TYPE ${e.name} ${e.type}`);
        for (const [labels, v] of e.values) out.push(`${Object.keys(labels).length ? key(e.name, labels) : e.name} ${v}`);
      }
      return out.join('\n') + '\n';
    },
  };
}

/** The route of a /v1 path, for labels: the wallet in the path is not a label value. */
export function routeOf(pathname: string): string {
  if (/^\/v1\/wallets\/[^/]+\/history\/?$/.test(pathname)) return '/v1/wallets/{address}/history';
  if (['/v1/usage', '/v1/chains', '/v1/openapi.json'].includes(pathname)) return pathname;
  return 'other';
}

/** Counts one /v1 answer: route and status, and a problem's code (read from its small JSON body). */
export async function observe(metrics: Metrics, pathname: string, response: Response): Promise<void> {
  metrics.request(routeOf(pathname), response.status);
  if (response.headers.get('content-type') !== 'application/problem+json') return;
  try {
    const code = ((await response.clone().json()) as { code?: unknown }).code;
    if (typeof code === 'string') metrics.problem(code);
  } catch {
    metrics.problem('unreadable');
  }
}
