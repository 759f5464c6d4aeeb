import { createServer as createHttpServer, request as httpRequest } from 'node:http';

/**
 * The replay RPC sends no CORS headers (Node clients need none); a browser calling it from the
 * app's origin does, as it would from any public RPC provider that allows browsers.
 */
export async function corsProxy(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const t = new URL(target);
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': '*',
    'access-control-allow-methods': 'POST, GET, OPTIONS',
  };
  const server = createHttpServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors);
      res.end();
      return;
    }
    const up = httpRequest({ host: t.hostname, port: t.port, path: req.url, method: req.method, headers: { ...req.headers, host: t.host } }, (r) => {
      res.writeHead(r.statusCode ?? 502, { ...r.headers, ...cors });
      r.pipe(res);
    });
    up.on('error', () => {
      res.writeHead(502, cors);
      res.end();
    });
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  const port = typeof a === 'object' && a ? a.port : 0;
  return {
    url: `http://127.0.0.1:${port}${t.pathname === '/' ? '' : t.pathname}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
