import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import type { AuthContext, AuthSpec } from '../../auth/types';
import { idParams } from '../../http/ids';
import { listEnvelope, listEnvelopeSchema, pageQuery } from '../../http/pagination';
import { route, type RouteDef } from '../../http/route';
import { createKeyBody, createdKeySchema, emailKeySchema, keyWithUsageSchema, patchKeyBody, rotatedKeySchema, toEmailKey, toEmailKeyWithUsage } from './schemas';
import * as keys from './service';

const tags = ['Email keys'];
const managers: AuthSpec = { kind: 'session', roles: ['owner', 'admin'] };

const LIMITS = 'Limits: `rate_per_second` is an exact sliding window (at most that many admissions in any one-second window), '
  + 'kept in memory by each API replica. With `EMAIL_RATE_REPLICAS` = N, each replica admits ⌊rate_per_second / N⌋ '
  + '(at least 1) per second: its documented per-replica share, so N replicas together never exceed the limit. '
  + 'It applies to test and live keys alike (429 `rate_limit_exceeded` with `Retry-After` and `RateLimit-*` headers). '
  + '`daily_cap` counts live sends only (a test key uses no quota) per UTC day, exactly across replicas with a shared '
  + 'Postgres counter (429 `daily_quota_exceeded`, `Retry-After` until UTC midnight).';

const SECRET_ONCE = 'The `secret` (`svc_test_…` or `svc_live_…`) appears in this response only; only an HMAC of it is stored '
  + 'and it cannot be recovered (a lost key is revoked and replaced). Send `Idempotency-Key` to make a retry safe: '
  + 'within 24 hours it replays this response, secret included.';

const notFound = { status: 404, code: 'email_key_not_found', description: 'No email key with this id in the account (also a malformed id or another account\'s).' };
const badDomain = { status: 400, code: 'invalid_reference', description: 'An `allowed_domains` entry is not a sender domain of the account; nothing is written.' };

function userOf(auth: AuthContext): string | null {
  return auth.kind === 'session' ? auth.userId : null;
}

/** Email API keys, managed from the dashboard by owners and admins (a member is 403 `forbidden_role`). */
export function emailKeyRoutes(): RouteDef[] {
  return [
    route({
      method: 'post', path: '/api/email/keys', operationId: 'createEmailKey', tags, auth: managers, idempotent: true,
      summary: 'Create an email API key.',
      description: `${SECRET_ONCE}\n\n${LIMITS}`,
      body: createKeyBody,
      responses: { 201: { description: 'The key, with its secret shown once', schema: createdKeySchema } },
      errors: [badDomain],
    }, async ({ auth, deps, body }) => {
      const { key, token } = await keys.createEmailKey(deps, accountOf(auth), {
        name: body.name, environment: body.environment, scopes: body.scopes, ratePerSecond: body.rate_per_second,
        dailyCap: body.daily_cap ?? null, allowedDomains: body.allowed_domains ?? null, allowedIps: body.allowed_ips ?? null,
        createdByUserId: userOf(auth),
      });
      return { status: 201, body: { ...toEmailKey(key), secret: token } };
    }),

    route({
      method: 'get', path: '/api/email/keys', operationId: 'listEmailKeys', tags, auth: managers,
      summary: 'Email API keys of the account, newest first, revoked ones included.',
      description: 'Never a secret: `display` shows the prefix and last 4 characters. Paged: `{ data, total, page, limit }`.',
      query: z.strictObject(pageQuery),
      responses: { 200: { description: 'A page of keys', schema: listEnvelopeSchema(emailKeySchema) } },
    }, async ({ auth, deps, query }) => {
      const { rows, total } = await keys.pageEmailKeys(deps, accountOf(auth), query);
      return { body: listEnvelope(rows.map(toEmailKey), total, query) };
    }),

    route({
      method: 'get', path: '/api/email/keys/{id}', operationId: 'getEmailKey', tags, auth: managers,
      summary: 'An email API key with its usage.',
      description: '`usage`: last use, sends (lifetime and the last 30 UTC days, test sends included), rate-limit hits and failed '
        + 'authentication attempts. Replicas write usage about once a second; this replica adds what it has not written yet.',
      params: idParams,
      responses: { 200: { description: 'The key and its usage', schema: keyWithUsageSchema } },
      errors: [notFound],
    }, async ({ auth, deps, params }) => {
      const { key, usage } = await keys.getEmailKeyWithUsage(deps, accountOf(auth), params.id);
      return { body: toEmailKeyWithUsage(key, usage) };
    }),

    route({
      method: 'patch', path: '/api/email/keys/{id}', operationId: 'updateEmailKey', tags, auth: managers,
      summary: 'Change a key\'s name, limits or allowlists.',
      description: `Only the fields sent change; \`daily_cap\`, \`allowed_domains\` and \`allowed_ips\` take null to remove them. `
        + `Every replica applies the change at once (Postgres NOTIFY; a 60-second cache bound otherwise).\n\n${LIMITS}`,
      params: idParams,
      body: patchKeyBody,
      responses: { 200: { description: 'The key', schema: emailKeySchema } },
      errors: [notFound, badDomain],
    }, async ({ auth, deps, params, body }) => {
      const row = await keys.updateEmailKey(deps, accountOf(auth), params.id, {
        name: body.name, ratePerSecond: body.rate_per_second, dailyCap: body.daily_cap,
        allowedDomains: body.allowed_domains, allowedIps: body.allowed_ips,
      });
      return { body: toEmailKey(row) };
    }),

    route({
      method: 'post', path: '/api/email/keys/{id}/revoke', operationId: 'revokeEmailKey', tags, auth: managers,
      summary: 'Revoke an email API key.',
      description: 'From now on the key answers 401 `api_key_revoked` on every replica, including requests in flight that have '
        + 'not yet handed their message over. Revoking again answers the key unchanged (the first `revoked_at` stays).',
      params: idParams,
      responses: { 200: { description: 'The revoked key', schema: emailKeySchema } },
      errors: [notFound],
    }, async ({ auth, deps, params }) => ({ body: toEmailKey(await keys.revokeEmailKey(deps, accountOf(auth), params.id)) })),

    route({
      method: 'post', path: '/api/email/keys/{id}/rotate', operationId: 'rotateEmailKey', tags, auth: managers, idempotent: true,
      summary: 'Replace a key with a new one of the same settings.',
      description: 'Creates a key with the same name, environment, scopes, limits and allowlists (`rotated_from_key_id` names the '
        + 'old one) and revokes the old key at once, with no grace period: deploy the new secret before rotating if '
        + `downtime matters, or create a second key and revoke the first later. ${SECRET_ONCE}`,
      params: idParams,
      responses: { 201: { description: 'The new key with its secret, and the revoked old key', schema: rotatedKeySchema } },
      errors: [notFound, { status: 409, code: 'email_key_revoked', description: 'The key is already revoked; create a new key instead.' }],
    }, async ({ auth, deps, params }) => {
      const { key, token, replaced } = await keys.rotateEmailKey(deps, accountOf(auth), params.id, userOf(auth));
      return { status: 201, body: { ...toEmailKey(key), secret: token, replaced_key: toEmailKey(replaced) } };
    }),
  ];
}
