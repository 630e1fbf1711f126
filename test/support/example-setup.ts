// Declares the test-only example domain once per worker (vitest re-runs a setup file per test file; the module it imports is evaluated once).
import './example-domain/index.js';
// and every registered domain (the registry loads them on demand: src/registry.ts), so a test reads the lists whole
import { loadDomains } from '../../src/registry.js';
await loadDomains();
