// Declares the test-only example domain once per worker (vitest re-runs a setup file per test file; the module it imports is evaluated once).
import './example-domain/index.js';
