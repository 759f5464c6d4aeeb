/** Calls to this server's /v1 API from the worker and the page. */
import { parsePublicChains, type PublicChain } from '../chains/registry.js';
import { parseStreamLine, readLines, type StreamLine } from './ndjson.js';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ApiConfig {
  /** Origin of the server, '' for the page's own origin. */
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
}

/** A chain as GET /v1/chains describes it (one definition: chains/registry.ts). */
export type ChainInfo = PublicChain;

/** problem+json (RFC 9457) to an ApiError with its `code`; other bodies keep the status text. */
export async function errorFromResponse(res: Response): Promise<ApiError> {
  let code = `http_${res.status}`;
  let message = `${res.status} ${res.statusText}`;
  try {
    const body = (await res.json()) as { code?: string; title?: string; detail?: string };
    if (body.code) code = body.code;
    message = body.detail ?? body.title ?? message;
  } catch {
    // Not JSON: the status says enough.
  }
  return new ApiError(res.status, code, message);
}

export function historyUrl(base: string, chain: string, address: string, cursor: string | null): string {
  // The USD figures come with every read (issue 22): they cost the server no more than a wait.
  const q = new URLSearchParams({ chain, include: 'usd' });
  if (cursor) q.set('cursor', cursor);
  return `${base}/v1/wallets/${encodeURIComponent(address)}/history?${q}`;
}

/** The NDJSON history stream, line by line with exact amounts. Throws ApiError before the first byte. */
export async function* streamHistory(cfg: ApiConfig, chain: string, address: string, cursor: string | null, signal?: AbortSignal): AsyncGenerator<StreamLine> {
  const f = cfg.fetch ?? fetch;
  const res = await f(historyUrl(cfg.baseUrl, chain, address, cursor), {
    headers: { authorization: `Bearer ${cfg.apiKey}`, accept: 'application/x-ndjson' },
    signal,
    cache: 'no-store',
  });
  if (!res.ok || !res.body) throw await errorFromResponse(res);
  for await (const line of readLines(res.body, signal)) yield parseStreamLine(line);
}

export async function fetchChains(cfg: Pick<ApiConfig, 'baseUrl' | 'fetch'>): Promise<ChainInfo[]> {
  const f = cfg.fetch ?? fetch;
  const res = await f(`${cfg.baseUrl}/v1/chains`, { cache: 'no-store' });
  if (!res.ok) throw await errorFromResponse(res);
  return parsePublicChains(await res.json());
}

/** Explorer link of a transaction from the chain's URL template (`https://.../tx/{signature}`). */
export function explorerLink(template: string | undefined, signature: string): string | null {
  if (!template || !template.includes('{signature}')) return null;
  return template.replace('{signature}', encodeURIComponent(signature));
}
