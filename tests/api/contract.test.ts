import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_CHECKS, runContractCheck } from '../support/contract-checks.js';
import { createScriptedSource } from '../support/scripted-source.js';
import { startTestServer, TEST_KEY, type TestServer } from '../support/test-server.js';

// The same checks run against the built app in tests/e2e/contract.spec.ts.
describe('the v1 contract at the boundary, through the harness', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ sources: { sol: createScriptedSource({ transactions: 0 }) } });
  });
  afterAll(async () => srv.close());
  it.each(CONTRACT_CHECKS.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    expect((await runContractCheck(srv.url, TEST_KEY, c)).problems).toEqual([]);
  });
});
