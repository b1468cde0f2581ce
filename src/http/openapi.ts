import { z } from 'zod';
import { DATABASE_RETRY_AFTER_SECONDS } from './errors';
import { MAX_JSON_DEPTH } from './jsonDepth';
import type { RouteDef } from './route';
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

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  return json;
}

function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const json = schemaOf(schema, 'input');
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

function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
}

function operation(def: RouteDef, auth: RouteAuthDocs) {
  const { spec } = def;
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(spec.responses)) {
    responses[status] = {
      description: r.description,
      ...(r.headers
        ? { headers: Object.fromEntries(Object.entries(r.headers).map(([h, d]) => [h, { description: d, schema: { type: 'string' } }])) }
        : {}),
      ...(r.schema ? { content: { [r.contentType ?? 'application/json']: { schema: schemaOf(r.schema, 'output') } } } : {}),
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
  for (const [status, lines] of byStatus) responses[String(status)] ??= errorResponse(lines.join('\n\n'));

  const parameters: unknown[] = [...parametersOf(spec.params, 'path'), ...parametersOf(spec.query, 'query')];
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
      ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(spec.body, 'input') } } } }
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
  for (const def of routes) {
    (paths[def.spec.path] ??= {})[def.spec.method] = operation(def, auth);
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
      schemas: { Error: errorSchema },
      securitySchemes: auth.securitySchemes,
    },
  };
}
