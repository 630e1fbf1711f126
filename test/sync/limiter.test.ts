/** The framework's bounded queue (sync/stage-helpers.ts `limiter`), used to hash `--from` files a few at a time. */
import { describe, expect, it } from 'vitest';
import { limiter } from '../../sync/stage-helpers.js';

describe('limiter', () => {
  it('runs at most n tasks at once, starts them in the order given, and a failure frees its slot', async () => {
    const slot = limiter(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const gates: Array<() => void> = [];
    const tasks = Array.from({ length: 7 }, (_, i) =>
      slot(async () => {
        started.push(i);
        running++;
        most = Math.max(most, running);
        await new Promise<void>((r) => gates.push(r));
        running--;
        if (i === 3) throw new Error('task 3 failed');
        return i * 10;
      }),
    );
    const settled = Promise.allSettled(tasks);
    // open the gates one at a time, each after the queue has had a chance to start the next task
    for (let opened = 0; opened < 7; opened++) {
      await new Promise((r) => setImmediate(r));
      expect(running).toBeLessThanOrEqual(2);
      gates[opened]!();
    }
    const results = await settled;
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([0, 10, 20, 'task 3 failed', 40, 50, 60]);
  });
});
