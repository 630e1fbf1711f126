/** Bash completion as a user gets it: the script `publicdata completion bash` prints, run for some words. */
import { spawnSync } from 'node:child_process';

export function complete(script: string, ...words: string[]): string[] {
  const all = ['publicdata', ...words];
  const r = spawnSync('bash', ['-c', `${script}\nCOMP_WORDS=(${all.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${all.length - 1}; _publicdata; printf '%s\\n' "\${COMPREPLY[@]}"`], { encoding: 'utf8' });
  return r.stdout.trim().split('\n').filter(Boolean);
}
