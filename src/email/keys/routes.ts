import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import type { AuthContext, AuthSpec } from '../../auth/types';
import { idParams } from '../../http/ids';
import { listEnvelope, listEnvelopeSchema, pageQuery } from '../../http/pagination';
import { route, type RouteDef } from '../../http/route';
import {
  createKeyBody,
  createdKeySchema,
  emailKeySchema,
  keyWithUsageSchema,
  patchKeyBody,
  rotatedKeySchema,
  toEmailKey,
  toEmailKeyWithUsage,
} from './schemas';
import * as keys from './service';
import * as docs from './docs';

const tags = ['Email keys'];
const managers: AuthSpec = { kind: 'session', roles: ['owner', 'admin'] };

const notFound = {
  status: 404,
  code: 'email_key_not_found',
  description: "No email key with this id in the account (also a malformed id or another account's).",
};
const badDomain = { status: 400, code: 'invalid_reference', description: docs.invalidReferenceError };

function userOf(auth: AuthContext): string | null {
  return auth.kind === 'session' ? auth.userId : null;
}

/** Email API keys, managed from the dashboard by owners and admins (a member is 403 `forbidden_role`). */
export function emailKeyRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'post',
        path: '/api/email/keys',
        operationId: 'createEmailKey',
        tags,
        auth: managers,
        idempotent: true,
        summary: 'Create an email API key.',
        description: `${docs.SECRET_ONCE}\n\n${docs.LIMITS}`,
        body: createKeyBody,
        responses: { 201: { description: 'The key, with its secret shown once', schema: createdKeySchema } },
        errors: [badDomain],
      },
      async ({ auth, deps, body }) => {
        const { key, token } = await keys.createEmailKey(deps, accountOf(auth), {
          name: body.name,
          environment: body.environment,
          scopes: body.scopes,
          ratePerSecond: body.rate_per_second,
          dailyCap: body.daily_cap ?? null,
          allowedDomains: body.allowed_domains ?? null,
          allowedIps: body.allowed_ips ?? null,
          createdByUserId: userOf(auth),
        });
        return { status: 201, body: { ...toEmailKey(key), secret: token } };
      },
    ),

    route(
      {
        method: 'get',
        path: '/api/email/keys',
        operationId: 'listEmailKeys',
        tags,
        auth: managers,
        summary: 'Email API keys of the account, newest first, revoked ones included.',
        description: docs.listEmailKeysDescription,
        query: z.strictObject(pageQuery),
        responses: { 200: { description: 'A page of keys', schema: listEnvelopeSchema(emailKeySchema) } },
      },
      async ({ auth, deps, query }) => {
        const { rows, total } = await keys.pageEmailKeys(deps, accountOf(auth), query);
        return { body: listEnvelope(rows.map(toEmailKey), total, query) };
      },
    ),

    route(
      {
        method: 'get',
        path: '/api/email/keys/{id}',
        operationId: 'getEmailKey',
        tags,
        auth: managers,
        summary: 'An email API key with its usage.',
        description: docs.getEmailKeyDescription,
        params: idParams,
        responses: { 200: { description: 'The key and its usage', schema: keyWithUsageSchema } },
        errors: [notFound],
      },
      async ({ auth, deps, params }) => {
        const { key, usage } = await keys.getEmailKeyWithUsage(deps, accountOf(auth), params.id);
        return { body: toEmailKeyWithUsage(key, usage) };
      },
    ),

    route(
      {
        method: 'patch',
        path: '/api/email/keys/{id}',
        operationId: 'updateEmailKey',
        tags,
        auth: managers,
        summary: "Change a key's name, limits or allowlists.",
        description: docs.updateEmailKeyDescription,
        params: idParams,
        body: patchKeyBody,
        responses: { 200: { description: 'The key', schema: emailKeySchema } },
        errors: [notFound, badDomain],
      },
      async ({ auth, deps, params, body }) => {
        const row = await keys.updateEmailKey(deps, accountOf(auth), params.id, {
          name: body.name,
          ratePerSecond: body.rate_per_second,
          dailyCap: body.daily_cap,
          allowedDomains: body.allowed_domains,
          allowedIps: body.allowed_ips,
        });
        return { body: toEmailKey(row) };
      },
    ),

    route(
      {
        method: 'post',
        path: '/api/email/keys/{id}/revoke',
        operationId: 'revokeEmailKey',
        tags,
        auth: managers,
        summary: 'Revoke an email API key.',
        description: docs.revokeEmailKeyDescription,
        params: idParams,
        responses: { 200: { description: 'The revoked key', schema: emailKeySchema } },
        errors: [notFound],
      },
      async ({ auth, deps, params }) => ({ body: toEmailKey(await keys.revokeEmailKey(deps, accountOf(auth), params.id)) }),
    ),

    route(
      {
        method: 'post',
        path: '/api/email/keys/{id}/rotate',
        operationId: 'rotateEmailKey',
        tags,
        auth: managers,
        idempotent: true,
        summary: 'Replace a key with a new one of the same settings.',
        description: docs.rotateEmailKeyDescription,
        params: idParams,
        responses: { 201: { description: 'The new key with its secret, and the revoked old key', schema: rotatedKeySchema } },
        errors: [notFound, { status: 409, code: 'email_key_revoked', description: docs.emailKeyRevokedError }],
      },
      async ({ auth, deps, params }) => {
        const { key, token, replaced } = await keys.rotateEmailKey(deps, accountOf(auth), params.id, userOf(auth));
        return { status: 201, body: { ...toEmailKey(key), secret: token, replaced_key: toEmailKey(replaced) } };
      },
    ),
  ];
}
