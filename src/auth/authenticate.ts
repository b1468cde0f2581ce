import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { ApiError } from '../http/errors';
import { authenticateEmailKey } from '../email/keys/authenticate';
import { agentKeyCacheOf } from './agentKeyRuntime';
import { sameSecret } from './secrets';
import { authenticateAgentKey, authenticateSession } from './service';
import type { AuthContext, AuthSpec } from './types';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function bearer(ctx: Context): string | null {
  const header = ctx.get('authorization');
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1] : null;
}

const missing = () => new ApiError(401, 'missing_credentials', 'send a credential as Authorization: Bearer <token>');
const invalid = () => new ApiError(401, 'invalid_credentials', 'the credential is invalid or revoked');

/** Resolves the caller for a route's AuthSpec: 401 for a missing or bad credential, 403 for one that may not do this. */
export async function authenticate(spec: AuthSpec, ctx: Context, deps: AppDeps): Promise<AuthContext> {
  switch (spec.kind) {
    case 'none':
      return { kind: 'none' };
    case 'session': {
      const token = bearer(ctx);
      if (!token) throw missing();
      const auth = await authenticateSession(deps.db, deps.secretHashKey, token);
      if (!auth || auth.kind !== 'session') throw invalid();
      if (spec.roles && !spec.roles.includes(auth.role)) {
        throw new ApiError(403, 'forbidden_role', `this route needs the role ${spec.roles.join(' or ')}`);
      }
      return auth;
    }
    case 'agent': {
      const token = bearer(ctx);
      if (!token) throw missing();
      const auth = await authenticateAgentKey(deps.db, deps.secretHashKey, token, agentKeyCacheOf(deps));
      if (!auth || auth.kind !== 'agent') throw invalid();
      if (auth.readOnly && !READ_METHODS.has(ctx.method) && !spec.readOnlyMayPost) {
        throw new ApiError(403, 'read_only_key', 'this agent key is read-only');
      }
      if (spec.permission && !auth.permissions.includes(spec.permission)) {
        throw new ApiError(403, 'missing_permission', `this agent key lacks the permission ${spec.permission}`);
      }
      return auth;
    }
    case 'agentSecret': {
      const expected = deps.config.AGENT_SECRET;
      if (!expected) throw new ApiError(401, 'agent_secret_unset', 'AGENT_SECRET is not configured; these routes are closed');
      const given = ctx.get('x-agent-secret');
      if (!given) throw new ApiError(401, 'missing_credentials', 'send the service secret in x-agent-secret');
      if (!sameSecret(given, expected)) throw invalid();
      return { kind: 'agentSecret' };
    }
    case 'sessionOrAgentSecret':
      return authenticate(ctx.get('x-agent-secret') ? { kind: 'agentSecret' } : { kind: 'session' }, ctx, deps);
    case 'cron': {
      const expected = deps.config.CRON_SECRET;
      if (!expected) throw new ApiError(401, 'cron_secret_unset', 'CRON_SECRET is not configured; cron routes are closed');
      const token = bearer(ctx);
      if (!token) throw missing();
      if (!sameSecret(token, expected)) throw invalid();
      return { kind: 'cron' };
    }
    case 'emailKey':
      return authenticateEmailKey(spec.scope, ctx, deps);
  }
}

/** The account of an account-scoped caller; routes with session, agent, email-key or job-token auth always have one. */
export function accountOf(auth: AuthContext): string {
  if (auth.kind === 'session' || auth.kind === 'agent' || auth.kind === 'emailKey' || auth.kind === 'jobToken') return auth.accountId;
  throw new ApiError(500, 'internal', 'route has no account');
}
