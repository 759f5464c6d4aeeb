import http from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * What Node's HTTP parser refuses before any handler runs (a request line or headers over Node's
 * 16 KB limit, bytes that are not HTTP, a request not received within the server's request
 * timeout) gets a problem like every other refusal, instead of Node's bare status line with no
 * body. Node calls a server's `clientError` listeners in place of its own answer, so the listener
 * must keep Node's one caution: never write onto a socket whose response is being sent. A
 * malformed request pipelined behind an NDJSON stream would otherwise inject a status line into
 * the middle of the stream's body; here its answer waits until the responses before it are done.
 */
export function answerClientErrors(server: http.Server): void {
  // The last response handed to each socket (pipelined requests queue theirs behind it).
  const lastResponse = new WeakMap<Duplex, http.ServerResponse>();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => lastResponse.set(req.socket, res));
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A client that went away: nothing to answer.
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const res = lastResponse.get(socket);
    if (!res || res.writableFinished || res.destroyed) return void socket.end(problemBytes(err));
    res.once('close', () => {
      if (socket.writable) socket.end(problemBytes(err));
      else socket.destroy();
    });
  });
}

/**
 * Installs `answerClientErrors` on the next HTTP server this process creates, and on that one
 * only: adapter-node creates its server right after the app's `init` hook, where this is called,
 * and keeps it to itself. `http.createServer` is itself again as soon as that server exists.
 */
export function answerClientErrorsOnNextServer(): void {
  const create = http.createServer;
  const h = http as { createServer: typeof http.createServer };
  h.createServer = ((...args: Parameters<typeof http.createServer>) => {
    h.createServer = create;
    const server = (create as (...a: unknown[]) => http.Server)(...args);
    answerClientErrors(server);
    return server;
  }) as typeof http.createServer;
}

const ANSWERS: Record<string, { status: number; reason: string; detail: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', detail: 'The request line and headers together exceed 16 KB.' },
  // Node's requestTimeout (300 s by default) ran out before the request was received in full.
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', detail: 'The request was not received in full in time.' },
};
const NOT_HTTP = { status: 400, reason: 'Bad Request', detail: 'The request is not valid HTTP/1.1.' };

function problemBytes(err: NodeJS.ErrnoException): string {
  const { status, reason, detail } = ANSWERS[err.code ?? ''] ?? NOT_HTTP;
  const body = JSON.stringify({ type: 'urn:wallet-history:problem:invalid_request', title: 'Invalid request', status, code: 'invalid_request', detail });
  return (
    `HTTP/1.1 ${status} ${reason}\r\n` +
    `content-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
    `x-content-type-options: nosniff\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`
  );
}
