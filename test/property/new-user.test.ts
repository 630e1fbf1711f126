/** What a new user met (issue 28), property's case (from test/cli/new-user; the shared cases are in test/kit/new-user.test.ts). */
import { describe, expect, test } from 'vitest';
import { runCli } from '../support/cli.js';
import { complete } from '../support/completion.js';

describe("completions offer a flag's own values only", () => {
  test("council-tax's band (A to H, free text in the spec: an unknown band is an empty 200) has no enum: no tax bands offered", async () => {
    const script = (await runCli(['completion', 'bash'])).stdout;
    expect(complete(script, 'property', 'council-tax', '--band', '')).not.toContain('higher');
    const fish = (await runCli(['completion', 'fish'])).stdout;
    expect(fish).not.toMatch(/council-tax' -l band -xa/);
  });
});
