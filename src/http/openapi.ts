import { z } from 'zod';
import { DATABASE_RETRY_AFTER_SECONDS } from './errors';
import { MAX_JSON_DEPTH } from './jsonDepth';
import type { ResponseSpec, RouteDef } from './route';
import type { RouteAuthDocs } from './routeAuth';

type JsonSchema = Record<string, unknown>;

const errorSchema: JsonSchema = {
  type: 'object',
  required: ['code', 'message', 'status'],
  properties: {
    code: { type: 'string', description: 'Stable snake_case code; branch on this.' },
    message: { type: 'string' },
    status: { type: 'integer' },
    upstreamStatus: { type: 'integer', description: 'Status the external platform answered, when the error came from it.' },
    retry_after_seconds: { type: 'integer', description: 'Also sent as the Retry-After header.' },
    errors: {
      type: 'array',
      items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } },
      description: 'Failing fields of a 400 validation_failed.',
    },
    request_id: { type: 'string' },
  },
};

/**
 * The document's named schemas. A zod schema with an `id` (`.meta({ id: 'ContentItem' })`) becomes
 * `#/components/schemas/<id>` wherever it appears; a 2xx answer's schema without one is named after its operation
 * (`<OperationId>Response`), so every answer a client generator reads has a type name. An id names one shape: the same
 * id on two shapes is an error, except that a request's view of a schema (before defaults and transforms) may differ
 * from the answer's, and is then `<id>Input`.
 */
class Components {
  readonly schemas: Record<string, JsonSchema> = { Error: errorSchema };
  private readonly sources = new Map<string, string>();

  schemaOf(schema: z.ZodType, io: 'input' | 'output', nameIfAnonymous?: string): JsonSchema {
    const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
    delete json.$schema;
    const defs = Object.entries((json.$defs ?? {}) as Record<string, JsonSchema>);
    delete json.$defs;
    // A named schema may hold another: each one's name depends on what its references become, so settle the names
    // first (they change only where a request's view differs: `<id>Input`), then register the rewritten schemas.
    let renamed = new Map(defs.map(([id]) => [id, id]));
    for (let round = 0; round <= defs.length; round++) {
      const next = new Map(defs.map(([id, def]) => [id, this.nameFor(id, rewriteRefs(def, renamed), io)]));
      const settled = defs.every(([id]) => next.get(id) === renamed.get(id));
      renamed = next;
      if (settled) break;
    }
    for (const [id, def] of defs) this.add(renamed.get(id)!, rewriteRefs(def, renamed), 'output');
    const rewritten = rewriteRefs(json, renamed);
    const ownId = z.globalRegistry.get(schema)?.id ?? nameIfAnonymous;
    if (!ownId || rewritten.$ref) return rewritten;
    return { $ref: `#/components/schemas/${this.add(ownId, rewritten, io)}` };
  }

  /** The component name `def` takes: its id, or for a request's view that differs from the answer's, `<id>Input`. */
  private nameFor(id: string, def: JsonSchema, io: 'input' | 'output'): string {
    const existing = this.sources.get(id);
    return io === 'input' && existing !== undefined && existing !== JSON.stringify(def) ? `${id}Input` : id;
  }

  private add(id: string, def: JsonSchema, io: 'input' | 'output'): string {
    const text = JSON.stringify(def);
    for (const name of io === 'output' ? [id] : [id, `${id}Input`]) {
      const existing = this.sources.get(name);
      if (existing === undefined) {
        this.sources.set(name, text);
        this.schemas[name] = def;
        return name;
      }
      if (existing === text) return name;
    }
    throw new Error(`OpenAPI: the schema id ${id} names two different shapes`);
  }
}

/** `#/$defs/X` → `#/components/schemas/<name of X>`, through the whole schema. */
function rewriteRefs(json: JsonSchema, names: Map<string, string>): JsonSchema {
  return JSON.parse(
    JSON.stringify(json, (key, value) =>
      key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')
        ? `#/components/schemas/${names.get(value.slice('#/$defs/'.length)) ?? value.slice('#/$defs/'.length)}`
        : value,
    ),
  ) as JsonSchema;
}

const pascal = (operationId: string) => operationId.charAt(0).toUpperCase() + operationId.slice(1);

function parametersOf(components: Components, schema: z.ZodType | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const json = components.schemaOf(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    description: s.description,
    schema: s,
  }));
}

/** A JSON answer's schema is named (its own id, or `<OperationId>Response` for a 2xx); other media types stay inline. */
function responseSchema(components: Components, operationId: string, status: string, r: ResponseSpec): JsonSchema {
  const json = (r.contentType ?? 'application/json') === 'application/json';
  const success = Number(status) >= 200 && Number(status) < 300;
  return components.schemaOf(
    r.schema!,
    'output',
    json && success ? `${pascal(operationId)}${status === '200' ? '' : status}Response` : undefined,
  );
}

/** Every 429 and 503 documents Retry-After: the product sends it with each (src/http/errors.ts retryAfterOf). */
const RETRY_AFTER_HEADER = {
  'Retry-After': { description: 'Seconds to wait before sending the request again.', schema: { type: 'integer', minimum: 0 } },
};

function errorResponse(status: number, description: string) {
  return {
    description,
    ...(status === 429 || status === 503 ? { headers: RETRY_AFTER_HEADER } : {}),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

function operation(def: RouteDef, auth: RouteAuthDocs, components: Components) {
  const { spec } = def;
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(spec.responses)) {
    responses[status] = {
      description: r.description,
      ...(r.headers
        ? { headers: Object.fromEntries(Object.entries(r.headers).map(([h, d]) => [h, { description: d, schema: { type: 'string' } }])) }
        : {}),
      ...(r.schema
        ? {
            content: {
              [r.contentType ?? 'application/json']: { schema: responseSchema(components, spec.operationId, status, r) },
              ...Object.fromEntries(
                Object.entries(r.otherMediaTypes ?? {}).map(([mediaType, schema]) => [
                  mediaType,
                  { schema: components.schemaOf(schema, 'output') },
                ]),
              ),
            },
          }
        : {}),
    };
  }
  const errors = [...(spec.errors ?? [])];
  if (spec.params || spec.query || spec.body)
    errors.push({
      status: 400,
      code: 'validation_failed',
      description: 'A field failed validation (a string holding U+0000 or a lone UTF-16 surrogate included); `errors` lists each.',
    });
  errors.push(...auth.errorsOf(spec.auth));
  if (spec.idempotent) {
    errors.push({ status: 400, code: 'invalid_idempotency_key', description: 'Idempotency-Key is not 1 to 255 visible ASCII characters.' });
    errors.push({
      status: 409,
      code: 'idempotency_key_reused | idempotency_request_in_progress',
      description: 'Idempotency-Key reused with another request, or its first request is still running (Retry-After: 1).',
    });
  }
  const byStatus = new Map<number, string[]>();
  for (const e of errors) byStatus.set(e.status, [...(byStatus.get(e.status) ?? []), `\`${e.code}\`: ${e.description}`]);
  for (const [status, lines] of byStatus) responses[String(status)] ??= errorResponse(status, lines.join('\n\n'));

  const parameters: unknown[] = [...parametersOf(components, spec.params, 'path'), ...parametersOf(components, spec.query, 'query')];
  if (spec.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', maxLength: 255 },
      description: 'Retries with the same key within 24 hours replay the first response (header Idempotent-Replayed: true).',
    });
  }
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: spec.tags,
    security: auth.securityOf(spec.auth),
    parameters,
    ...(spec.body && !spec.rawBody
      ? { requestBody: { required: true, content: { 'application/json': { schema: components.schemaOf(spec.body, 'input') } } } }
      : {}),
    ...(spec.rawBody
      ? {
          requestBody: {
            required: true,
            description: 'Read as raw bytes, exactly as sent.',
            content: { [spec.requestContentType ?? 'application/json']: { schema: {} } },
          },
        }
      : {}),
    responses,
  };
}

/** OpenAPI 3.1 document of every mounted route, generated from the same zod schemas that validate requests. */
export function buildOpenApi(routes: RouteDef[], auth: RouteAuthDocs, serverUrl?: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const components = new Components();
  for (const def of routes) {
    (paths[def.spec.path] ??= {})[def.spec.method] = operation(def, auth, components);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Workyard API',
      version: '0.1.0',
      description: [
        'Errors: every error is `{ code, message, status, upstreamStatus?, retry_after_seconds?, errors?, request_id }`; branch on `code`.',
        'Requests carry `X-Request-Id` (echoed, or assigned). Bodies are JSON, at most 1 MiB by default (413 `payload_too_large`).',
        'Unknown routes answer 404 `route_not_found`; a known path with another method answers 405 `method_not_allowed`.',
        'A URL and headers over 16 KiB answer 431 `request_header_fields_too_large`; bytes that are not HTTP/1.1 answer 400 `bad_request` (the connection closes).',
        'A string holding U+0000 or a lone UTF-16 surrogate answers 400 `validation_failed` naming its field; nothing is written.',
        'A body that cannot be read answers 400 `invalid_body`, a JSON body that does not parse 400 `invalid_json`, and a request that does not arrive in time 408 `request_timeout`.',
        `JSON (a body, an MCP message) may nest arrays and objects at most ${MAX_JSON_DEPTH} levels deep: deeper is 400 \`json_too_deep\`, before anything runs.`,
        `While the database cannot be reached (or is shutting down, or out of connections), every route answers 503 \`database_unavailable\` with \`Retry-After: ${DATABASE_RETRY_AFTER_SECONDS}\` — credential checks included, so a valid credential is never refused as invalid then.`,
        "A replayed error (same `Idempotency-Key`) is the stored error with the replaying request's own `request_id`.",
        'Anything unexpected answers 500 `internal`, without internals; its `request_id` finds it in the logs.',
        "Image runs are gated by the account plan (`GET /api/account/plan`): 402 `billing_standing` when the billing standing is not `good` (`billing_standing` names it), 402 `quota_exhausted` when the UTC month's image allowance is used up (`allowance`, `used`, `period`).",
        "A department chat's tool call answers the model (and `tool_calls[].http_status` on the turn) with the body its route would answer, or with `tool_not_available` (403: not offered to the caller; 404: no such tool), `invalid_arguments` (400: the arguments fail the tool's schema) or `invalid_tool_arguments` (400: not a JSON object); a step that lost its call answers `tool_call_not_found` and a step of a deleted turn `turn_not_found` (the turn then fails with that code).",
        'A scheduled publish that failed after its retries keeps its last error as `scheduled_publish.error.code` on the agent content get: a code a route below lists (e.g. `platform_upstream`), or `content_publish_busy` (another publish of the item held its lock on every attempt), `publish_timeout` (no attempt finished in time) or `publish_failed` (anything else).',
      ].join('\n\n'),
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(components.schemas).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: auth.securitySchemes,
    },
  };
}
