import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Serves a fetch-style handler (Request -> Response) over node:http, as adapter-node does for the
 * SvelteKit app: the tests and benchmarks run the same API over real sockets through this.
 * A client that disconnects aborts `request.signal` and cancels the response body.
 */
export type FetchHandler = (request: Request) => Promise<Response>;

export interface NodeServerHandle {
  url: string;
  close(): Promise<void>;
}

function toRequest(req: IncomingMessage, base: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (Array.isArray(v)) for (const x of v) headers.append(k, x);
    else if (v !== undefined) headers.set(k, v);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', base), {
    method: req.method,
    headers,
    signal,
    body: hasBody ? (req as unknown as ReadableStream) : undefined,
    // @ts-expect-error Node's fetch needs duplex for a streamed request body.
    duplex: hasBody ? 'half' : undefined,
  });
}

async function writeResponse(res: ServerResponse, response: Response, isHead: boolean): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((v, k) => (headers[k] = v));
  res.writeHead(response.status, headers);
  if (!response.body || isHead) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  res.on('close', () => {
    if (!res.writableFinished) void reader.cancel().catch(() => {});
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // Backpressure: wait for the socket to drain before reading more from the store.
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done).off('close', done);
            resolve();
          };
          res.on('drain', done).on('close', done);
        });
      }
      if (res.destroyed) break;
    }
  } catch {
    // The body failed or was cancelled: the client is gone or the handler ended the stream itself.
  } finally {
    res.end();
  }
}

export function serveNode(handler: FetchHandler, { port = 0, host = '127.0.0.1' } = {}): Promise<NodeServerHandle> {
  const server = createHttpServer(async (req, res) => {
    const ac = new AbortController();
    res.on('close', () => ac.abort());
    const base = `http://${req.headers.host ?? host}`;
    try {
      const response = await handler(toRequest(req, base, ac.signal));
      await writeResponse(res, response, req.method === 'HEAD');
    } catch (e) {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String((e as Error)?.message ?? e));
      } else res.destroy();
    }
  });
  // Streams may stay open for the whole budget (55 s by default): no request timeout here.
  server.requestTimeout = 0;
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve) => {
    server.listen(port, host, () => {
      const { port: p } = server.address() as AddressInfo;
      resolve({
        url: `http://${host}:${p}`,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}
