import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/support/chromium.js';

/**
 * e2e against the BUILT server (`npm run build` first; each suite starts `node build` itself with
 * its own data directory and the Solana replay RPC, see tests/e2e/stack.ts). Debian's chromium,
 * never a downloaded browser; the flags keep it from calling out on a closed network.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  // 2 shared cores: one browser at a time.
  workers: 1,
  fullyParallel: false,
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
    acceptDownloads: true,
    trace: 'off',
  },
});
