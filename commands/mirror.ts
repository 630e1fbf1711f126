/** sync, mirror status|path|export, sql: wired once the mirror framework lands. */
import { Command } from 'commander';
import type { Context } from '../src/context.js';

export function registerMirror(_program: Command, _ctx: Context): void {}
