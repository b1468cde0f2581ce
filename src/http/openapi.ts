import { z } from 'zod';
import type { AuthSpec } from '../auth/types';
import type { RouteDef } from './route';

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
    errors: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } }, description: 'Failing fields of a 400 validation_failed.' },
    request_id: { type: 'string' },
  },
};

/** The route's security requirement; an email key lists the scope it needs (OpenAPI 3.1 allows role names there). */
function securityOf(auth: AuthSpec): Array<Record<string, string[]>> {
  switch (auth.kind) {
    case 'none': return [];
    case 'session': return [{ sessionToken: [] }];
    case 'agent': return [{ agentKey: [] }];
    case 'agentSecret': return [{ agentSecret: [] }];
    case 'sessionOrAgentSecret': return [{ sessionToken: [] }, { agentSecret: [] }];
    case 'cron': return [{ cronSecret: [] }];
    case 'emailKey': return [{ emailKey: [auth.scope] }];
  }
}

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

function operation(def: RouteDef) {
  const { spec } = def;
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(spec.responses)) {
    responses[status] = {
      description: r.description,
      ...(r.headers ? { headers: Object.fromEntries(Object.entries(r.headers).map(([h, d]) => [h, { description: d, schema: { type: 'string' } }])) } : {}),
      ...(r.schema ? { content: { 'application/json': { schema: schemaOf(r.schema, 'output') } } } : {}),
    };
  }
  const errors = [...(spec.errors ?? [])];
  if (spec.params || spec.query || spec.body) errors.push({ status: 400, code: 'validation_failed', description: 'A field failed validation (a string holding U+0000 or a lone UTF-16 surrogate included); `errors` lists each.' });
  if (spec.auth.kind === 'emailKey') {
    errors.push({ status: 401, code: 'invalid_api_key | api_key_revoked', description: 'No email API key, an invalid one, or a revoked one (also for a request in flight when its key is revoked).' });
    errors.push({ status: 403, code: 'missing_scope | ip_not_allowed', description: `The key lacks the scope ${spec.auth.scope}, or the request comes from outside the key's IP allowlist.` });
  } else if (spec.auth.kind !== 'none') {
    errors.push({ status: 401, code: 'missing_credentials | invalid_credentials', description: 'No credential, or an invalid or revoked one.' });
  }
  if (spec.auth.kind === 'agentSecret' || spec.auth.kind === 'sessionOrAgentSecret') errors.push({ status: 401, code: 'agent_secret_unset', description: 'AGENT_SECRET is not configured: these routes are closed.' });
  if (spec.auth.kind === 'cron') errors.push({ status: 401, code: 'cron_secret_unset', description: 'CRON_SECRET is not configured: cron routes are closed.' });
  if (spec.auth.kind === 'session' && spec.auth.roles) errors.push({ status: 403, code: 'forbidden_role', description: `Needs role ${spec.auth.roles.join(' or ')}.` });
  if (spec.auth.kind === 'agent' && (spec.auth.permission || !spec.auth.readOnlyMayPost)) errors.push({ status: 403, code: 'missing_permission | read_only_key', description: `Needs ${spec.auth.permission ?? 'an agent key'}; read-only keys may only read.` });
  if (spec.idempotent) {
    errors.push({ status: 400, code: 'invalid_idempotency_key', description: 'Idempotency-Key is not 1 to 255 visible ASCII characters.' });
    errors.push({ status: 409, code: 'idempotency_key_reused | idempotency_request_in_progress', description: 'Idempotency-Key reused with another request, or its first request is still running (Retry-After: 1).' });
  }
  const byStatus = new Map<number, string[]>();
  for (const e of errors) byStatus.set(e.status, [...(byStatus.get(e.status) ?? []), `\`${e.code}\`: ${e.description}`]);
  for (const [status, lines] of byStatus) responses[String(status)] ??= errorResponse(lines.join('\n\n'));

  const parameters: unknown[] = [...parametersOf(spec.params, 'path'), ...parametersOf(spec.query, 'query')];
  if (spec.idempotent) {
    parameters.push({
      name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 },
      description: 'Retries with the same key within 24 hours replay the first response (header Idempotent-Replayed: true).',
    });
  }
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: spec.tags,
    security: securityOf(spec.auth),
    parameters,
    ...(spec.body && !spec.rawBody ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(spec.body, 'input') } } } } : {}),
    ...(spec.rawBody ? { requestBody: { required: true, description: 'Read as raw bytes, exactly as sent.', content: { [spec.requestContentType ?? 'application/json']: { schema: {} } } } } : {}),
    responses,
  };
}

/** OpenAPI 3.1 document of every mounted route, generated from the same zod schemas that validate requests. */
export function buildOpenApi(routes: RouteDef[], serverUrl?: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const def of routes) {
    (paths[def.spec.path] ??= {})[def.spec.method] = operation(def);
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
      ].join('\n\n'),
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    paths,
    components: {
      schemas: { Error: errorSchema },
      securitySchemes: {
        sessionToken: { type: 'http', scheme: 'bearer', description: 'User session token (`wys_…`) for dashboard routes.' },
        agentKey: { type: 'http', scheme: 'bearer', description: 'Agent API key (`wyk_…`) for `/api/agent/...` routes; carries permissions and a read-only flag.' },
        agentSecret: { type: 'apiKey', in: 'header', name: 'x-agent-secret', description: 'Service agent secret for builder routes.' },
        cronSecret: { type: 'http', scheme: 'bearer', description: '`CRON_SECRET` for `/api/cron/*`; closed when unset.' },
        emailKey: { type: 'http', scheme: 'bearer', description: 'Email API key (`svc_test_…` or `svc_live_…`) for `/v1/email/...` routes; each route names the scope it needs.' },
      },
    },
  };
}
