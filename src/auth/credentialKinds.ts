import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { isLiveEmailKey } from '../email/keys/authenticate';
import { ApiError } from '../http/errors';
import { agentKeyCacheOf } from './agentKeyRuntime';
import { CREDENTIAL_PREFIX, sameSecret } from './secrets';
import { isLiveCredential } from './service';

/** The kinds of credential a request can carry. */
export type CredentialKind = 'session' | 'agentKey' | 'emailKey' | 'cronSecret' | 'agentSecret';

/** How an answer names each kind. */
export const CREDENTIAL_NAMES: Record<CredentialKind, string> = {
  session: 'a user session token (wys_…)',
  agentKey: 'an agent API key (wyk_…)',
  emailKey: 'an email API key (svc_…)',
  cronSecret: 'the cron secret',
  agentSecret: 'the service secret in x-agent-secret',
};

const EMAIL_KEY_PREFIX = 'svc_';

export function bearer(ctx: Context): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'));
  return match ? match[1] : null;
}

/** The kind of a bearer token that authenticates as one of `kinds` (looked up like the routes of that kind would). */
async function liveBearerKind(token: string, kinds: CredentialKind[], deps: AppDeps): Promise<CredentialKind | undefined> {
  const has = (kind: CredentialKind) => kinds.includes(kind);
  if (has('session') && token.startsWith(CREDENTIAL_PREFIX.session)) {
    if (await isLiveCredential('session', deps.db, deps.secretHashKey, token)) return 'session';
  } else if (has('agentKey') && token.startsWith(CREDENTIAL_PREFIX.agentKey)) {
    if (await isLiveCredential('agentKey', deps.db, deps.secretHashKey, token, agentKeyCacheOf(deps))) return 'agentKey';
  } else if (has('emailKey') && token.startsWith(EMAIL_KEY_PREFIX)) {
    if (await isLiveEmailKey(token, deps)) return 'emailKey';
  }
  const { CRON_SECRET, AGENT_SECRET } = deps.config;
  if (has('cronSecret') && CRON_SECRET && sameSecret(token, CRON_SECRET)) return 'cronSecret';
  if (has('agentSecret') && AGENT_SECRET && sameSecret(token, AGENT_SECRET)) return 'agentSecret';
  return undefined;
}

/**
 * The kind of a credential the request carries that authenticates but is none of the kinds the route `takes`: the
 * bearer token when there is one, else the x-agent-secret header. Undefined for anything that does not authenticate
 * (unknown, forged, revoked), so the answer says nothing about a string that is no valid credential.
 */
async function otherLiveKind(ctx: Context, deps: AppDeps, takes: CredentialKind[]): Promise<CredentialKind | undefined> {
  const others = (Object.keys(CREDENTIAL_NAMES) as CredentialKind[]).filter((kind) => !takes.includes(kind));
  const token = bearer(ctx);
  if (token) return liveBearerKind(token, others, deps);
  const secret = ctx.get('x-agent-secret');
  const expected = deps.config.AGENT_SECRET;
  return secret && expected && others.includes('agentSecret') && sameSecret(secret, expected) ? 'agentSecret' : undefined;
}

/**
 * The 401 for a request whose credential the route does not accept: `wrong_credential_kind` naming the kinds the
 * route takes when the credential is a valid one of another kind, else `otherwise` (missing, invalid or revoked).
 */
export async function refusal(ctx: Context, deps: AppDeps, takes: CredentialKind[], otherwise: ApiError): Promise<ApiError> {
  const sent = await otherLiveKind(ctx, deps, takes);
  if (!sent) return otherwise;
  const wanted = takes.map((kind) => CREDENTIAL_NAMES[kind]).join(' or ');
  return new ApiError(401, 'wrong_credential_kind', `this route takes ${wanted}; the credential sent is ${CREDENTIAL_NAMES[sent]}`);
}
