import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Runs the mainnet golden test on its own (the suite runs it too):
 * npx vitest run --config tests/evm/mainnet/vitest.config.ts
 * It needs no database and no build (the source is imported directly).
 */
export default defineConfig({
  root: fileURLToPath(new URL('../../..', import.meta.url)),
  test: {
    include: ['tests/evm/mainnet/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
