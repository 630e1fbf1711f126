import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // dist/ rebuilt when its inputs changed, once before the files run (test/global-setup.ts)
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    // One module graph per worker (isolate: false, docs/testing.md). Every file also has the test-only domain
    // `example` declared (test/support/example-domain/), the example the shared tests use, so that removing
    // any real domain leaves them passing (`npm run check:domains`); tests that compare the registry with
    // the spec documents, README or folders take the real domains from test/support/production.ts.
    include: ['test/**/*.test.ts'],
    isolate: false,
    setupFiles: ['test/support/example-setup.ts'],
  },
});
