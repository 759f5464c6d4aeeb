/**
 * The v1 contract at the boundary (status, code, content type, caching and auth headers), written
 * once and run twice: through the test harness (tests/api/contract.test.ts) and against the built
 * app started as an operator runs it (tests/e2e/contract.spec.ts). Each check is a request and
 * what its answer must be; none of them starts a load.
 */
export interface ContractCheck {
  name: string;
  path: string;
  method?: string;
  /** Send the valid key (true), none (false), or this header value. */
  auth: boolean | string;
  status: number;
  /** problem+json code, when the answer is a problem. */
  code?: string;
  headers?: Record<string, string | RegExp>;
}

const SOL = 'So11111111111111111111111111111111111111112';
const NO_STORE = { 'cache-control': 'no-store' };
/** Any origin may call the API (Bearer keys, no cookies); no answer may be sniffed as another type. */
const CORS = { 'access-control-allow-origin': '*', 'x-content-type-options': 'nosniff' };

export const CONTRACT_CHECKS: ContractCheck[] = [
  { name: 'unknown /v1 path is a 404 problem', path: '/v1/nothing/here', auth: true, status: 404, code: 'not_found', headers: NO_STORE },
  { name: '/v1 alone is a 404 problem', path: '/v1', auth: true, status: 404, code: 'not_found' },
  ...['POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'].map<ContractCheck>((method) => ({
    name: `${method} on history is 405 with Allow: GET`,
    path: `/v1/wallets/${SOL}/history`,
    method,
    auth: true,
    status: 405,
    code: method === 'HEAD' ? undefined : 'method_not_allowed',
    headers: { allow: 'GET', ...NO_STORE },
  })),
  ...['/v1/usage', '/v1/chains', '/v1/openapi.json'].map<ContractCheck>((path) => ({
    name: `POST on ${path} is 405 with Allow`,
    path,
    method: 'POST',
    auth: true,
    status: 405,
    code: 'method_not_allowed',
    headers: { allow: 'GET, HEAD' },
  })),
  {
    name: 'no key is 401 with WWW-Authenticate',
    path: `/v1/wallets/${SOL}/history?limit=1`,
    auth: false,
    status: 401,
    code: 'unauthorized',
    headers: { 'www-authenticate': /^Bearer/ },
  },
  { name: 'a malformed key is 401', path: '/v1/usage', auth: 'Basic abc', status: 401, code: 'unauthorized' },
  { name: 'an unknown key is 401', path: '/v1/usage', auth: 'Bearer wth_not_a_key_of_this_server_000', status: 401, code: 'unauthorized' },
  {
    name: 'a bad address is 400 invalid_address',
    path: '/v1/wallets/not-an-address/history?limit=1',
    auth: true,
    status: 400,
    code: 'invalid_address',
    headers: NO_STORE,
  },
  {
    name: 'an EVM address on sol is 400 invalid_address',
    path: '/v1/wallets/0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045/history?limit=1',
    auth: true,
    status: 400,
    code: 'invalid_address',
  },
  { name: 'an unknown chain is 400 unknown_chain', path: `/v1/wallets/${SOL}/history?chain=nochain&limit=1`, auth: true, status: 400, code: 'unknown_chain' },
  { name: 'limit=0 is 400 invalid_limit', path: `/v1/wallets/${SOL}/history?limit=0`, auth: true, status: 400, code: 'invalid_limit' },
  { name: 'limit=1e3 is 400 invalid_limit', path: `/v1/wallets/${SOL}/history?limit=1e3`, auth: true, status: 400, code: 'invalid_limit' },
  {
    name: 'a garbage cursor is 400 invalid_cursor',
    path: `/v1/wallets/${SOL}/history?limit=1&cursor=garbage`,
    auth: true,
    status: 400,
    code: 'invalid_cursor',
  },
  {
    name: 'usage with a key is 200 JSON, no-store',
    path: '/v1/usage',
    auth: true,
    status: 200,
    headers: { 'content-type': /^application\/json/, ...NO_STORE, ...CORS, 'access-control-expose-headers': /retry-after/ },
  },
  {
    name: 'chains need no key, no-store',
    path: '/v1/chains',
    auth: false,
    status: 200,
    headers: { 'content-type': /^application\/json/, ...NO_STORE, ...CORS },
  },
  {
    name: 'a CORS preflight of history is 204, allowing the Authorization header from any origin',
    path: `/v1/wallets/${SOL}/history`,
    method: 'OPTIONS',
    auth: false,
    status: 204,
    headers: { ...CORS, 'access-control-allow-headers': /authorization/, 'access-control-allow-methods': /GET/ },
  },
  { name: 'a problem carries the CORS headers too', path: '/v1/usage', auth: false, status: 401, code: 'unauthorized', headers: { ...CORS, ...NO_STORE } },
  {
    name: 'the OpenAPI document needs no key and may be cached',
    path: '/v1/openapi.json',
    auth: false,
    status: 200,
    headers: { 'cache-control': /^public, max-age=\d+$/ },
  },
];

export interface ContractResult {
  name: string;
  problems: string[];
}

/** Runs one check against `baseUrl` with `key`; returns what differs from the contract (empty when it holds). */
export async function runContractCheck(baseUrl: string, key: string, c: ContractCheck): Promise<ContractResult> {
  const headers: Record<string, string> = {};
  if (c.auth === true) headers.authorization = `Bearer ${key}`;
  else if (typeof c.auth === 'string') headers.authorization = c.auth;
  const res = await fetch(baseUrl + c.path, { method: c.method ?? 'GET', headers, redirect: 'manual' });
  const problems: string[] = [];
  if (res.status !== c.status) problems.push(`status ${res.status}, expected ${c.status}`);
  for (const [h, want] of Object.entries(c.headers ?? {})) {
    const got = res.headers.get(h);
    const ok = got !== null && (typeof want === 'string' ? got === want : want.test(got));
    if (!ok) problems.push(`header ${h}: ${JSON.stringify(got)}, expected ${String(want)}`);
  }
  const body = c.method === 'HEAD' || c.method === 'OPTIONS' ? '' : await res.text();
  if (c.code) {
    if (res.headers.get('content-type') !== 'application/problem+json')
      problems.push(`content-type ${res.headers.get('content-type')}, expected application/problem+json`);
    try {
      const p = JSON.parse(body) as { code?: string; status?: number; type?: string; title?: string };
      if (p.code !== c.code) problems.push(`code ${p.code}, expected ${c.code}`);
      if (p.status !== c.status) problems.push(`problem status ${p.status}, expected ${c.status}`);
      if (!p.type || !p.title) problems.push('problem without type or title');
    } catch {
      problems.push(`body is not JSON: ${body.slice(0, 120)}`);
    }
  }
  return { name: c.name, problems };
}
