import { expect, test } from '@playwright/test';
import { connect } from 'node:net';
import { CONTRACT_CHECKS, runContractCheck } from '../support/contract-checks.js';
import { API_KEY, startAppServer, type AppServer } from './stack.js';

// The shared contract checks (tests/support/contract-checks.ts) against the BUILT app, so the
// SvelteKit route files, hooks and adapter-node are tested as an operator runs them (`node build`).
let app: AppServer;
test.beforeAll(async () => {
  app = await startAppServer({});
});
test.afterAll(async () => app?.stop());

for (const c of CONTRACT_CHECKS) {
  test(`contract: ${c.name}`, async () => {
    expect((await runContractCheck(app.baseUrl, API_KEY, c)).problems).toEqual([]);
  });
}

/** Sends raw bytes to the server and reads its whole answer (it closes the connection after). */
function rawRequest(baseUrl: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let out = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (out += d));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

test('what Node refuses before the app (headers over 16 KB, a request that is not HTTP) gets a problem', async () => {
  const big = await rawRequest(app.baseUrl, `GET /v1/chains HTTP/1.1\r\nHost: x\r\nX-Filler: ${'a'.repeat(20_000)}\r\n\r\n`);
  expect(big).toMatch(/^HTTP\/1\.1 431 /);
  expect(big).toMatch(/content-type: application\/problem\+json/i);
  expect(JSON.parse(big.slice(big.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 431, code: 'invalid_request' });
  const longLine = await rawRequest(app.baseUrl, `GET /v1/wallets/${'x'.repeat(20_000)}/history HTTP/1.1\r\nHost: x\r\n\r\n`);
  expect(longLine).toMatch(/^HTTP\/1\.1 431 /);
  const garbage = await rawRequest(app.baseUrl, 'HELLO THERE\r\n\r\n');
  expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
  expect(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 400, code: 'invalid_request' });
  // The server still serves.
  expect((await fetch(`${app.baseUrl}/v1/chains`)).status).toBe(200);
});
