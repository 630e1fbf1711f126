import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // dist/ rebuilt when its inputs changed, once before the files run (test/global-setup.ts)
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      // Every test file but test/kit/ and test/pages/: one module graph per worker (isolate: false, docs/testing.md).
      { extends: true, test: { name: 'main', include: ['test/**/*.test.ts'], exclude: ['test/kit/**', 'test/pages/**'], isolate: false } },
      // The shared tests whose example is the test-only domain (test/support/example-domain/), the pages'
      // among them: each file its own module graph, so the domain it declares is in its registry and in no
      // other file's.
      { extends: true, test: { name: 'kit', include: ['test/kit/**/*.test.ts', 'test/pages/**/*.test.ts'], isolate: true } },
    ],
  },
});
