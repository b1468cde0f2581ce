import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { ApiError } from '../http/errors';
import { authenticateEmailKey } from '../email/keys/authenticate';
import { agentKeyCacheOf } from './agentKeyRuntime';
import { bearer, refusal, type CredentialKind } from './credentialKinds';
import { sameSecret } from './secrets';
import { authenticateAgentKey, authenticateSession } from './service';
import type { AuthContext, AuthSpec } from './types';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const missing = () => new ApiError(401, 'missing_credentials', 'send a credential as Authorization: Bearer <token>');

/** The 403 of an agent key that lacks what a route or an operation needs. */
export const missingPermission = (permission: string) =>
  new ApiError(403, 'missing_permission', `this agent key lacks the permission ${permission}`);
const invalid = () => new ApiError(401, 'invalid_credentials', 'the credential is invalid or revoked');

/** The credential kinds a route's AuthSpec takes, as a refusal names them. */
const TAKES: Record<Exclude<AuthSpec['kind'], 'none'>, CredentialKind[]> = {
  session: ['session'],
  agent: ['agentKey'],
  agentSecret: ['agentSecret'],
  sessionOrAgentSecret: ['session', 'agentSecret'],
  cron: ['cronSecret'],
  emailKey: ['emailKey'],
};

/**
 * Resolves the caller for a route's AuthSpec: 401 for a missing or bad credential (`wrong_credential_kind` for a
 * valid one of a kind the route does not take), 403 for one that may not do this.
 */
export function authenticate(spec: AuthSpec, ctx: Context, deps: AppDeps): Promise<AuthContext> {
  return spec.kind === 'none' ? Promise.resolve({ kind: 'none' }) : authenticateAs(spec, TAKES[spec.kind], ctx, deps);
}

/** `takes`: what the route takes as a whole (a session-or-service-secret route checks one of the two). */
async function authenticateAs(
  spec: Exclude<AuthSpec, { kind: 'none' }>,
  takes: CredentialKind[],
  ctx: Context,
  deps: AppDeps,
): Promise<AuthContext> {
  const refuse = (otherwise: ApiError) => refusal(ctx, deps, takes, otherwise);
  switch (spec.kind) {
    case 'session': {
      const token = bearer(ctx);
      if (!token) throw await refuse(missing());
      const auth = await authenticateSession(deps.db, deps.secretHashKey, token);
      if (!auth || auth.kind !== 'session') throw await refuse(invalid());
      if (spec.roles && !spec.roles.includes(auth.role)) {
        throw new ApiError(403, 'forbidden_role', `this route needs the role ${spec.roles.join(' or ')}`);
      }
      return auth;
    }
    case 'agent': {
      const token = bearer(ctx);
      if (!token) throw await refuse(missing());
      const auth = await authenticateAgentKey(deps.db, deps.secretHashKey, token, agentKeyCacheOf(deps));
      if (!auth || auth.kind !== 'agent') throw await refuse(invalid());
      if (auth.readOnly && !READ_METHODS.has(ctx.method) && !spec.readOnlyMayPost) {
        throw new ApiError(403, 'read_only_key', 'this agent key is read-only');
      }
      if (spec.permission && !auth.permissions.includes(spec.permission)) throw missingPermission(spec.permission);
      return auth;
    }
    case 'agentSecret': {
      const expected = deps.config.AGENT_SECRET;
      if (!expected) throw new ApiError(401, 'agent_secret_unset', 'AGENT_SECRET is not configured; these routes are closed');
      const given = ctx.get('x-agent-secret');
      if (!given) throw await refuse(new ApiError(401, 'missing_credentials', 'send the service secret in x-agent-secret'));
      if (!sameSecret(given, expected)) throw invalid();
      return { kind: 'agentSecret' };
    }
    case 'sessionOrAgentSecret':
      return authenticateAs(ctx.get('x-agent-secret') ? { kind: 'agentSecret' } : { kind: 'session' }, takes, ctx, deps);
    case 'cron': {
      const expected = deps.config.CRON_SECRET;
      if (!expected) throw new ApiError(401, 'cron_secret_unset', 'CRON_SECRET is not configured; cron routes are closed');
      const token = bearer(ctx);
      if (!token) throw await refuse(missing());
      if (!sameSecret(token, expected)) throw await refuse(invalid());
      return { kind: 'cron' };
    }
    case 'emailKey':
      try {
        return await authenticateEmailKey(spec.scope, ctx, deps);
      } catch (err) {
        throw err instanceof ApiError && err.code === 'invalid_api_key' ? await refuse(err) : err;
      }
  }
}

/** The account of an account-scoped caller; routes with session, agent, email-key or job-token auth always have one. */
export function accountOf(auth: AuthContext): string {
  if (auth.kind === 'session' || auth.kind === 'agent' || auth.kind === 'emailKey' || auth.kind === 'jobToken') return auth.accountId;
  throw new ApiError(500, 'internal', 'route has no account');
}
