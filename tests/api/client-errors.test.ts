import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedSource } from '../support/scripted-source.js';
import { randomWallet, startTestServer, streamAll, TEST_KEY, type TestServer } from '../support/test-server.js';

/**
 * What Node's parser refuses on a connection that is still sending a response: the refusal waits
 * for the responses before it, so a stream is never cut or written into (the clientError answer of
 * src/lib/server/http/client-errors.ts, installed on this server as on the built one).
 */

/** Writes `bytes` in one go and reads the whole answer until the server closes the connection. */
function raw(url: string, bytes: string): Promise<Buffer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('end', () => resolve(Buffer.concat(chunks)));
    socket.on('error', reject);
  });
}

/** Splits an HTTP/1.1 response with a chunked body off the front of `buf`: its head, body and the bytes after it. */
function readChunked(buf: Buffer): { head: string; body: Buffer; rest: Buffer } {
  const headEnd = buf.indexOf('\r\n\r\n');
  const head = buf.subarray(0, headEnd).toString();
  let at = headEnd + 4;
  const parts: Buffer[] = [];
  for (;;) {
    const lineEnd = buf.indexOf('\r\n', at);
    const sizeLine = buf.subarray(at, lineEnd).toString();
    if (lineEnd < 0 || !/^[0-9a-f]+$/i.test(sizeLine))
      throw new Error(`not a chunk size at byte ${at}: ${JSON.stringify(buf.subarray(at, at + 40).toString())}`);
    const size = parseInt(sizeLine, 16);
    at = lineEnd + 2;
    if (size === 0) return { head, body: Buffer.concat(parts), rest: buf.subarray(at + 2) };
    parts.push(buf.subarray(at, at + size));
    at += size + 2;
  }
}

describe('a malformed request pipelined behind a stream', () => {
  let srv: TestServer;
  const wallet = randomWallet();
  beforeAll(async () => {
    // Small stored reads: the stream goes out in many writes, so it is in flight when the parser fails.
    srv = await startTestServer({ sources: { sol: createScriptedSource({ transactions: 1_500, batchSize: 250 }) }, readRows: 50 });
    await streamAll(srv, wallet);
  });
  afterAll(() => srv?.close());

  const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`;

  for (const [name, junk, status] of [
    ['not HTTP', 'HELLO THERE\r\n\r\n', 400],
    ['headers over 16 KB', `GET /v1/chains HTTP/1.1\r\nHost: x\r\nX-Filler: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
  ] as const) {
    it(`${name}: the stream arrives byte for byte, then the ${status} problem, then the connection closes`, async () => {
      const path = `/v1/wallets/${wallet}/history`;
      const clean = Buffer.from(await (await srv.get(path)).arrayBuffer());
      const { head, body, rest } = readChunked(await raw(srv.url, get(path) + junk));
      expect(head).toMatch(/^HTTP\/1\.1 200 /);
      expect(body.equals(clean)).toBe(true);
      expect(body.toString()).not.toContain('HTTP/1.1');
      const answer = rest.toString();
      expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ status, code: 'invalid_request' });
    });
  }

  it('a malformed request on an idle connection is answered at once', async () => {
    const answer = (await raw(srv.url, 'HELLO THERE\r\n\r\n')).toString();
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  });
});
