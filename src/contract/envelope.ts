/** Builders for success envelopes, shared by every local handler. */
import type { Meta, Pagination, SuccessEnvelope } from './types.js';
import { API_VERSION, OGL } from './types.js';

/** `meta` with `api_version` and `licence` first, as the API orders them. */
export function meta(extra: Omit<Partial<Meta>, 'api_version'> = {}): Meta {
  return { api_version: API_VERSION, licence: OGL, ...extra };
}

export function pagination(total: number, page: number, perPage: number): Pagination {
  return { total, page, per_page: perPage, total_pages: Math.ceil(total / perPage) };
}

/** Page an in-memory list (shipped reference data). */
export function paged<T>(items: readonly T[], page: number, perPage: number, m: Meta = meta()): SuccessEnvelope<T[]> {
  const start = (page - 1) * perPage;
  return { data: items.slice(start, start + perPage), meta: m, pagination: pagination(items.length, page, perPage) };
}

export function ok<T>(data: T, m: Meta = meta()): SuccessEnvelope<T> {
  return { data, meta: m };
}
