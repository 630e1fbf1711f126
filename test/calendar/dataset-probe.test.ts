/**
 * Moved from test/server/conformance.test.ts (issue 33): the dataset-access probe the conformance test uses
 * to prove that routes declared to read no mirror file read none is not blind: the calendar's bank-holidays
 * route, which reads the bank holidays when they are synced without declaring them required, is seen
 * reading them.
 */
import { describe, expect, it } from 'vitest';
import { callLocal } from '../../src/backends/local.js';
import { probeDatasetAccess } from '../../src/mirror/paths.js';
import { handlerCtx } from '../support/handler-context.js';

describe('the dataset-access probe', () => {
  it('sees what the calendar reads when the bank holidays are synced (not declared required)', async () => {
    const seen: string[] = [];
    probeDatasetAccess((name) => seen.push(name));
    try {
      await callLocal({ method: 'GET', path: '/v1/calendar/bank-holidays', query: {} }, handlerCtx());
      expect(seen).toEqual(['bank-holidays']);
    } finally {
      probeDatasetAccess(undefined);
    }
  });
});
