/**
 * The production registry as the shared tests see it: every test file of the `main` vitest project also has
 * the test-only `example` domain declared (vitest.config.ts setupFiles: test/support/example-setup.ts), so a
 * test that compares the registry with something outside it (the spec documents, the README, the folders of
 * src/domains, the built binary's OpenAPI) compares these, the real domains only.
 */
import { EXAMPLE_DOMAIN } from './example-domain/index.js';
import { DOMAINS, ROUTES } from '../../src/registry.js';

export const PRODUCTION_DOMAINS = DOMAINS.filter((d) => d.name !== EXAMPLE_DOMAIN);
export const PRODUCTION_ROUTES = ROUTES.filter((r) => r.domain !== EXAMPLE_DOMAIN);
