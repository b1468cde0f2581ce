import type { Context } from 'koa';
import { secretMatches } from '../../auth/secrets';
import type { AuthContext, EmailScope } from '../../auth/types';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { LiveKey } from './liveKey';
import { emailRuntime } from './runtime';
import { parseEmailKeyToken } from './token';

export type EmailKeyAuth = Extract<AuthContext, { kind: 'emailKey' }>;

const invalidKey = () => new ApiError(401, 'invalid_api_key', 'send a valid email API key as Authorization: Bearer svc_…');
const revokedKey = () => new ApiError(401, 'api_key_revoked', 'this email API key has been revoked');

function bearer(ctx: Context): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'));
  return match ? match[1] : null;
}

/**
 * The email key of a request, from the in-process keyring (no database read while the key is cached): 401
 * `invalid_api_key` for a missing, malformed, unknown or wrong key, 401 `api_key_revoked`, 403 `ip_not_allowed`
 * for a source outside the key's IP allowlist, 403 `missing_scope`. A wrong secret or a revoked key counts as a
 * failed authentication attempt of the key.
 */
export function authenticateEmailKey(scope: EmailScope, ctx: Context, deps: AppDeps): EmailKeyAuth | Promise<EmailKeyAuth> {
  return authenticateEmailKeyToken(scope, bearer(ctx), ctx.ip, deps);
}

/**
 * The same checks for a key presented another way (SMTP AUTH's password): `token` is the secret `svc_…`, `ip` the
 * client address the IP allowlist judges. A key in the keyring is checked at once (no promise on the hot path).
 */
export function authenticateEmailKeyToken(
  scope: EmailScope,
  token: string | null,
  ip: string,
  deps: AppDeps,
): EmailKeyAuth | Promise<EmailKeyAuth> {
  const parsed = token ? parseEmailKeyToken(token) : null;
  if (!parsed) throw invalidKey();
  const key = emailRuntime(deps).keyring.get(parsed.id);
  return key instanceof Promise ? key.then((loaded) => checkKey(loaded, parsed, scope, ip, deps)) : checkKey(key, parsed, scope, ip, deps);
}

function checkKey(
  key: LiveKey | null,
  parsed: { secret: string; environment: string },
  scope: EmailScope,
  ip: string,
  deps: AppDeps,
): EmailKeyAuth {
  if (!key || key.environment !== parsed.environment) throw invalidKey();
  if (!secretMatches(deps.secretHashKey, parsed.secret, key.secretHash)) {
    key.usage.add(key.id, key.accountId, { failedAuth: 1 });
    throw invalidKey();
  }
  if (key.revoked) {
    key.usage.add(key.id, key.accountId, { failedAuth: 1 });
    throw revokedKey();
  }
  if (key.allowedIps && !key.allowedIps.allows(ip)) {
    throw new ApiError(403, 'ip_not_allowed', 'this email API key does not accept requests from this IP address');
  }
  if (!key.scopes.includes(scope)) {
    throw new ApiError(403, 'missing_scope', `this email API key lacks the scope ${scope}`);
  }
  key.usage.used(key.id);
  return { kind: 'emailKey', accountId: key.accountId, keyId: key.id, environment: key.environment, scopes: key.scopes, key };
}

/**
 * Whether `token` is an email key that authenticates (known, the right secret, not revoked), checked without counting
 * an attempt or a use: for telling a caller that sent it to a route of another credential kind.
 */
export async function isLiveEmailKey(token: string, deps: AppDeps): Promise<boolean> {
  const parsed = parseEmailKeyToken(token);
  if (!parsed) return false;
  const key = await emailRuntime(deps).keyring.get(parsed.id);
  return (
    key !== null &&
    key.environment === parsed.environment &&
    !key.revoked &&
    secretMatches(deps.secretHashKey, parsed.secret, key.secretHash)
  );
}

/** 401 `api_key_revoked` when the key was revoked since the request authenticated: call it right before committing. */
export function assertKeyActive(auth: AuthContext): void {
  if (auth.kind === 'emailKey' && auth.key.revoked) throw revokedKey();
}

/** The live key behind an email-key request. */
export function liveKeyOf(auth: AuthContext): LiveKey {
  if (auth.kind !== 'emailKey' || !(auth.key instanceof LiveKey))
    throw new Error('not an email-key request authenticated by authenticateEmailKey');
  return auth.key;
}

/** Whether the key may send from `domain`: always when it has no domain allowlist (the domain must still be verified). */
export function senderDomainAllowed(auth: AuthContext, domain: string): boolean {
  const allowed = liveKeyOf(auth).allowedDomains;
  return allowed === null || allowed.has(normaliseDomain(domain));
}

/** Domain names compare in lower case without a trailing dot. */
export function normaliseDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/\.$/, '');
}
