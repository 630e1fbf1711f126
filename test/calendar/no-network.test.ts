/** calendar's sync modules with no network (moved from test/sync/http-close.test.ts): each fails within a couple of short retries. */
import { describe, it } from 'vitest';
import { expectNoNetworkFailures } from '../support/no-network.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const upstream = useUpstreamServer('pd-close-calendar-');

describe('sync with no network', () => {
  it('every dataset fails within a couple of short retries, each saying what it waits for', async () => {
    await expectNoNetworkFailures(['bank-holidays'], upstream.syncOptions());
  });
});
