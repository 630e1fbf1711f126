import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { VERSION } from '../../src/version.js';
import { runCli } from '../support/cli.js';

it('--version prints the package.json version', async () => {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
  expect(VERSION).toBe(pkg.version);
  expect((await runCli(['--version'])).stdout).toBe(`${pkg.version}\n`);
});
