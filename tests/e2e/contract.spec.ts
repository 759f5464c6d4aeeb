import { expect, test } from '@playwright/test';
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
