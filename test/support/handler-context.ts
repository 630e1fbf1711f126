/** The handler context every in-process route test uses: a fixed clock, no environment, no mirror. */
import { tmpdir } from 'node:os';
import type { HandlerContext } from '../../src/contract/types.js';

/** Today, for every test: 2026-11-21 (tax year 2026-27). */
export const FIXED_NOW = new Date('2026-11-21T12:00:00Z');

export function handlerCtx(iso?: string, overrides: Partial<HandlerContext> = {}): HandlerContext {
  const now = iso ? new Date(iso) : FIXED_NOW;
  return { now: () => now, env: {}, mirrorDir: '/nonexistent', cacheDir: tmpdir(), ...overrides };
}
