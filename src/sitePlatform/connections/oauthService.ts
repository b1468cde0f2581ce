import { ApiError } from '../../http/errors';
import { isUuid } from '../../http/ids';
import { exchangeAuthorizationCode } from '../../clients/sitePlatform';
import { authorizeUrl, callbackUrl } from './authorizeUrl';
import { nowOf, type SitePlatformDeps } from './deps';
import { chooseOAuthClient, recheckOAuthClient } from './oauthClients';
import { persistGrant, type PersistedGrant } from './persist';
import { validateToken } from './platform';
import { requireOwnProject } from '../../projects/service';
import { isExpired, newState, readState, signState, stateKey, type Intent, type OAuthState } from './state';
import { findConnection } from './store';
import { notConfigured, siteTokenCipher } from './tokens';

export interface StartInput {
  intent: Intent;
  project_id?: string;
  site_id?: string;
  connection_id?: string;
  oauth_app_id?: string;
}

const invalidState = (why: string) => new ApiError(400, 'invalid_oauth_state', `the OAuth state is ${why}; start the connection again`);

/** The connect routes refuse up front, so a connect never fails half-way on configuration. */
export function requireConnectConfigured(deps: SitePlatformDeps): string {
  siteTokenCipher(deps.config);
  if (!deps.config.PUBLIC_APP_URL) throw notConfigured('PUBLIC_APP_URL');
  return deps.config.PUBLIC_APP_URL;
}

async function requireReconnectable(deps: SitePlatformDeps, accountId: string, connectionId: string): Promise<void> {
  const row = isUuid(connectionId) ? await findConnection(deps.db, accountId, connectionId) : undefined;
  if (!row) throw new ApiError(404, 'site_platform_connection_not_found', 'no site platform connection with this id in your account');
  if (row.disconnected_at)
    throw new ApiError(409, 'site_platform_connection_disconnected', 'a disconnected connection cannot be reconnected; connect again');
}

/**
 * The project must still be the account's and the connection may have been disconnected in the five minutes since
 * the start: refuse before the code is exchanged, so a refused connect never mints a token on the platform.
 */
async function recheckTarget(deps: SitePlatformDeps, state: OAuthState): Promise<void> {
  if (state.intent === 'site_project_connect') await requireOwnProject(deps.db, state.accountId, state.projectId ?? '');
  if (state.intent === 'site_reconnect') await requireReconnectable(deps, state.accountId, state.connectionId ?? '');
}

/** The authorize URL with the 22 scopes and a signed state good for five minutes. Nothing is stored yet. */
export async function startConnect(deps: SitePlatformDeps, accountId: string, input: StartInput) {
  const publicAppUrl = requireConnectConfigured(deps);
  if (input.intent === 'site_project_connect') await requireOwnProject(deps.db, accountId, input.project_id!);
  if (input.intent === 'site_reconnect') await requireReconnectable(deps, accountId, input.connection_id!);
  const client = await chooseOAuthClient(deps, accountId, { oauthAppId: input.oauth_app_id, reconnectId: input.connection_id });
  const state = newState(
    {
      accountId,
      intent: input.intent,
      client: client.ref,
      projectId: input.project_id,
      siteId: input.site_id,
      connectionId: input.connection_id,
    },
    nowOf(deps),
  );
  return {
    authorizeUrl: authorizeUrl({
      authUrl: deps.config.SITE_PLATFORM_AUTH_URL,
      clientId: client.clientId,
      redirectUri: callbackUrl(publicAppUrl),
      state: signState(stateKey(deps.secretHashKey), state),
    }),
    expiresAt: new Date(state.expiresAt * 1000),
    client: client.ref.kind,
  };
}

/**
 * The platform's redirect back. Step 1: the state is ours and fresh, and its client still belongs to the account.
 * Step 2: exchange the code, introspect, list sites; seal and persist in one transaction. Step 3: re-read under
 * the account's scope (inside persistGrant), then best-effort follow-ups.
 */
export async function completeConnect(deps: SitePlatformDeps, input: { code: string; state: string }): Promise<PersistedGrant> {
  const publicAppUrl = requireConnectConfigured(deps);
  const state = readState(stateKey(deps.secretHashKey), input.state);
  if (!state) throw invalidState('not one this service issued');
  if (isExpired(state, nowOf(deps))) throw invalidState('expired (connects must finish within 5 minutes)');
  const client = await recheckOAuthClient(deps, state.accountId, state.client);
  await recheckTarget(deps, state);

  const { accessToken } = await exchangeAuthorizationCode({
    apiUrl: deps.config.SITE_PLATFORM_API_URL,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    code: input.code,
    redirectUri: callbackUrl(publicAppUrl),
    timeoutMs: deps.config.SITE_PLATFORM_TIMEOUT_MS,
  }).catch((err: unknown) => {
    if (err instanceof ApiError && err.status < 500) {
      throw new ApiError(
        400,
        'invalid_oauth_code',
        'the platform refused the authorization code (used, expired or for another client); start the connection again',
        { upstreamStatus: err.extra.upstreamStatus },
      );
    }
    throw err;
  });
  const validated = await validateToken(
    deps,
    accessToken,
    true,
    () => new ApiError(502, 'platform_auth', 'the platform rejected the token it just issued'),
  );
  return persistGrant(deps, {
    accountId: state.accountId,
    intent: state.intent,
    authKind: 'oauth',
    token: accessToken,
    ...validated,
    oauthAppId: state.client.kind === 'account' ? state.client.id : null,
    projectId: state.projectId,
    siteId: state.siteId,
    connectionId: state.connectionId,
  });
}
