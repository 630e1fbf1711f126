/**
 * An OpenAPI 3.1 document generated from the route table (the same ROUTES that `publicdata api --list`
 * prints), served by `publicdata serve` at `GET /v1/` and `GET /v1/openapi.json`.
 * Each operation carries its credit cost (`x-credit-cost`) and whether this server answers it offline
 * (`x-offline`, with the mirror datasets it needs in `x-datasets`).
 */
import { ERROR_CODES } from '../contract/errors.js';
import type { ParamSpec } from '../contract/route.js';
import type { ResponseSchema } from '../contract/schema.js';
import type { Route as RouteSpec } from '../registry.js';
import { VERSION } from '../version.js';

type Schema = Record<string, unknown>;

export function paramSchema(p: ParamSpec, where: 'query' | 'path' | 'body'): Schema {
  const s: Schema = {};
  switch (p.type) {
    case 'string':
      s.type = 'string';
      if (p.minLength !== undefined) s.minLength = p.minLength;
      if (p.pattern !== undefined) s.pattern = `^(?:${p.pattern})$`;
      break;
    case 'integer':
    case 'number':
      s.type = p.type;
      if (p.min !== undefined) s.minimum = p.min;
      if (p.exclusiveMin !== undefined) s.exclusiveMinimum = p.exclusiveMin;
      if (p.max !== undefined) s.maximum = p.max;
      break;
    case 'boolean':
      s.type = 'boolean';
      break;
    case 'date':
      s.type = 'string';
      s.format = 'date';
      break;
    case 'tax_year':
      s.type = 'string';
      s.pattern = '^\\d{4}-\\d{2}$';
      break;
    case 'year':
      s.type = where === 'body' ? 'integer' : 'string';
      if (where !== 'body') s.pattern = '^\\d{4}$';
      break;
    case 'string[]': {
      const items: Schema = { type: 'string' };
      if (p.enum) items.enum = [...p.enum];
      if (p.pattern !== undefined) items.pattern = `^(?:${p.pattern})$`;
      s.type = 'array';
      s.items = items;
      if (p.min !== undefined) s.minItems = p.min;
      if (p.max !== undefined) s.maxItems = p.max;
      break;
    }
    case 'object':
      s.type = 'object';
      break;
    case 'array':
      s.type = 'array';
      break;
  }
  if (p.enum && p.type !== 'string[]') s.enum = [...p.enum];
  if (p.default !== undefined) s.default = p.default;
  if (p.description) s.description = p.description;
  return s;
}

function parameters(r: RouteSpec): Schema[] {
  const out: Schema[] = [];
  for (const p of r.pathParams ?? []) out.push({ name: p.name, in: 'path', required: true, description: p.description, schema: paramSchema(p, 'path') });
  for (const p of r.query ?? []) {
    const o: Schema = { name: p.name, in: 'query', required: Boolean(p.required), description: p.description, schema: paramSchema(p, 'query') };
    // Lists in a query are comma-separated (or the parameter repeated).
    if (p.type === 'string[]') Object.assign(o, { style: 'form', explode: false });
    out.push(o);
  }
  return out;
}

function requestBody(r: RouteSpec): Schema | undefined {
  if (r.method !== 'POST') return undefined;
  let schema: Schema;
  if (r.bodyDocument && !(r.body?.length)) schema = { type: 'object', description: 'request document (validated as a whole; VALIDATION_ERROR lists every failure)' };
  else {
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const p of r.body ?? []) {
      properties[p.name] = paramSchema(p, 'body');
      if (p.required) required.push(p.name);
    }
    // a field the route does not declare is refused (400 invalid_parameter), so the document says so
    schema = { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
  }
  return { required: true, content: { 'application/json': { schema } } };
}

const LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Credits-Remaining', 'X-Credits-Cost'];

function headerRefs(): Schema {
  return Object.fromEntries(LIMIT_HEADERS.map((h) => [h, { $ref: `#/components/headers/${h}` }]));
}

function errorResponse(description: string, codes: string[], extraHeaders: Schema = {}): Schema {
  return {
    description: `${description} (error.code: ${codes.join(', ')})`,
    headers: { ...headerRefs(), ...extraHeaders },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
  };
}

/**
 * The 200 envelope of a route with a response schema: `data` as the spec states it, `meta` with the
 * fields the route must carry, top-level `pagination` on paginated routes; closed, as the spec's envelope.
 */
function envelopeSchema(r: RouteSpec, rs: ResponseSchema): Schema {
  const meta: Schema = rs.meta?.length
    ? { allOf: [{ $ref: '#/components/schemas/Meta' }], required: ['api_version', ...rs.meta] }
    : { $ref: '#/components/schemas/Meta' };
  const top = r.pagination === 'top';
  return {
    type: 'object',
    description: `${r.summary} (shape: ${rs.source})`,
    required: ['data', 'meta', ...(top ? ['pagination'] : [])],
    properties: { data: rs.data, meta, ...(top ? { pagination: { $ref: '#/components/schemas/Pagination' } } : {}) },
    additionalProperties: false,
  };
}

function responses(r: RouteSpec, hasSchema: boolean): Schema {
  const byStatus = new Map<number, string[]>();
  const add = (status: number, code: string) => byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  for (const code of r.errors) add(ERROR_CODES[code]?.status ?? 400, code);
  add(401, 'unauthorized');
  add(402, 'insufficient_credits');
  add(429, 'rate_limit_exceeded');
  if (r.local?.datasets?.length) add(503, 'dataset_not_synced');
  if (!r.local) add(501, 'not_available_offline');
  const out: Schema = {
    '200': {
      description: 'the response envelope',
      headers: { ...headerRefs(), ...(r.method === 'GET' ? { ETag: { schema: { type: 'string' } } } : {}) },
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${hasSchema ? r.id : 'SuccessEnvelope'}` } } },
    },
  };
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const extra = status === 429 ? { 'Retry-After': { schema: { type: 'integer' }, description: 'seconds to wait' } } : {};
    out[String(status)] = errorResponse(ERROR_CODES[codes[0]!]?.when ?? 'error', [...new Set(codes)], extra);
  }
  return out;
}

export interface OpenApiOptions {
  auth: boolean;
  /** Route id -> response schema (registry loadResponseSchemas); a route without one answers a generic SuccessEnvelope. */
  responses?: ReadonlyMap<string, ResponseSchema>;
}

/** The OpenAPI 3.1 document of `routes`, with `serverUrl` (ending in /v1) as its server. */
export function openApiDocument(routes: readonly RouteSpec[], serverUrl: string, opts: OpenApiOptions = { auth: true }): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  const routeSchemas: Record<string, Schema> = {};
  for (const r of routes) {
    const path = r.path.replace(/^\/v1/, '') || '/';
    const op: Schema = {
      operationId: r.id,
      summary: r.summary,
      tags: [r.domain],
      parameters: parameters(r),
      responses: responses(r, Boolean(opts.responses?.has(r.id))),
      'x-credit-cost': r.cost,
      'x-offline': Boolean(r.local),
      'x-datasets': (r.local?.datasets ?? []).map((d) => d.name),
    };
    if (r.notes) op.description = r.notes;
    // a route of publicdata's own, not of the published API (spec 5-places.md): --source live cannot answer it
    if (r.extension) op['x-publicdata-extension'] = r.extension;
    const rs = opts.responses?.get(r.id);
    if (rs) routeSchemas[r.id] = envelopeSchema(r, rs);
    const body = requestBody(r);
    if (body) op.requestBody = body;
    (paths[path] ??= {})[r.method.toLowerCase()] = op;
  }
  const intHeader = (description: string): Schema => ({ description, schema: { type: 'integer' } });
  return {
    openapi: '3.1.0',
    info: {
      title: 'UK public-data API (v1), served by publicdata',
      version: VERSION,
      description:
        'The v1 public-data API answered from the local mirror and calculators. GET costs 1 credit, POST 10; ' +
        'x-offline tells whether this server answers an operation (otherwise 501 not_available_offline).',
      license: { name: 'Open Government Licence v3.0 (data)', url: 'https://www.nationalarchives.gov.uk/doc/open-government-licence/version/3/' },
    },
    servers: [{ url: serverUrl }],
    ...(opts.auth ? { security: [{ bearerAuth: [] }] } : {}),
    tags: [...new Set(routes.map((r) => r.domain))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' } },
      headers: {
        'X-RateLimit-Limit': intHeader('requests per minute of the key’s plan'),
        'X-RateLimit-Remaining': intHeader('requests left in the current window'),
        'X-RateLimit-Reset': intHeader('Unix time (seconds) at which the window resets'),
        'X-Credits-Remaining': intHeader('credits left (monthly allowance plus purchased)'),
        'X-Credits-Cost': intHeader('credits this request consumed'),
      },
      schemas: {
        ...routeSchemas,
        Meta: {
          type: 'object',
          required: ['api_version'],
          properties: {
            api_version: { const: 'v1' },
            licence: { type: 'string' },
            source: { type: 'string' },
            source_url: { type: 'string' },
            as_of: { type: ['string', 'null'], description: 'the date of the upstream data answered from; null where the loaded data does not state it (meta.note or meta.warning says why)' },
          },
          additionalProperties: true,
        },
        Pagination: {
          type: 'object',
          required: ['total', 'page', 'per_page', 'total_pages'],
          properties: { total: { type: 'integer' }, page: { type: 'integer' }, per_page: { type: 'integer' }, total_pages: { type: 'integer' } },
        },
        SuccessEnvelope: {
          type: 'object',
          required: ['data', 'meta'],
          properties: {
            data: { type: ['object', 'array'] },
            meta: { $ref: '#/components/schemas/Meta' },
            pagination: { $ref: '#/components/schemas/Pagination' },
          },
        },
        ErrorEnvelope: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message', 'documentation_url'],
              properties: {
                code: { type: 'string' },
                message: { type: 'string' },
                documentation_url: { type: 'string' },
                details: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['field', 'code', 'message'],
                    properties: { field: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' } },
                  },
                },
              },
            },
          },
        },
      },
    },
  };
}
