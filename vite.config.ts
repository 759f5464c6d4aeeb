import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [sveltekit()],
  // Rolldown's plugin-timing report (SvelteKit's writeBundle and closeBundle are most of a 6 s
  // build by design) is noise in every build log here.
  build: { rolldownOptions: { checks: { bundlerTimings: false } } },
  test: {
    include: ['tests/**/*.test.ts'],
    // PostgreSQL for the store suites: TEST_DATABASE_URL, else a throwaway server of the run's own.
    globalSetup: ['tests/support/global-postgres.ts'],
    // 2 cores: two workers keep suites lean; DB-heavy files run in their own process.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
