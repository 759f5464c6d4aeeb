import { defineConfig } from '@playwright/test';

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
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    acceptDownloads: true,
    trace: 'off',
  },
});
