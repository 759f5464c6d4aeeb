import http from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * What Node's HTTP parser refuses before any handler runs (a request line or headers over Node's
 * 16 KB limit, a request that is not HTTP) gets a problem like every other refusal, instead of
 * Node's bare "431" or "400" with no body. Node calls a server's `clientError` listeners in place
 * of its own answer, so every HTTP server this process creates gets one: adapter-node creates its
 * server after the app's `init` hook ran, which is where this is installed.
 */
export function answerClientErrorsWithProblems(): void {
  const marker = Symbol.for('wallet-history.client-errors');
  const h = http as unknown as Record<symbol, boolean> & typeof http;
  if (h[marker]) return;
  h[marker] = true;
  const create = http.createServer;
  h.createServer = ((...args: Parameters<typeof http.createServer>) => {
    const server = (create as (...a: unknown[]) => http.Server)(...args);
    server.on('clientError', answer);
    return server;
  }) as typeof http.createServer;
}

function answer(err: NodeJS.ErrnoException, socket: Duplex): void {
  // A client that went away: nothing to answer.
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const body = JSON.stringify({
    type: `urn:wallet-history:problem:invalid_request`,
    title: 'Invalid request',
    status,
    code: 'invalid_request',
    detail: tooLarge ? 'The request line and headers together exceed 16 KB.' : 'The request is not valid HTTP/1.1.',
  });
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `content-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `x-content-type-options: nosniff\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`,
  );
}
