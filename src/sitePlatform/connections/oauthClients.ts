import { ApiError } from '../../http/errors';
import { isUuid } from '../../http/ids';
import type { SitePlatformDeps } from './deps';
import type { ClientRef } from './state';
import { findConnection, findOAuthClient, insertOAuthClient, listOAuthClients, rewrapClientSecret, type OAuthClientRow } from './store';
import { openSealed, siteTokenCipher } from './tokens';

export interface OAuthClientCredentials {
  ref: ClientRef;
  clientId: string;
  clientSecret: string;
}

export const clientNotFound = () =>
  new ApiError(404, 'site_platform_oauth_client_not_found', 'no site platform OAuth client with this id in your account');

export async function registerOAuthClient(
  deps: SitePlatformDeps,
  accountId: string,
  input: { name?: string; client_id: string; client_secret: string },
): Promise<OAuthClientRow> {
  const row = await insertOAuthClient(deps.db, accountId, {
    name: input.name ?? null,
    client_id: input.client_id,
    client_secret_enc: siteTokenCipher(deps.config).encrypt(input.client_secret),
  });
  if (!row) throw new ApiError(409, 'site_platform_oauth_client_exists', 'this client_id is already registered on your account');
  return row;
}

async function credentialsOf(deps: SitePlatformDeps, row: OAuthClientRow): Promise<OAuthClientCredentials> {
  const { plaintext, resealed } = openSealed(deps.config, row.client_secret_enc);
  if (resealed) await rewrapClientSecret(deps.db, row.account_id, row.id, row.client_secret_enc, resealed);
  return { ref: { kind: 'account', id: row.id }, clientId: row.client_id, clientSecret: plaintext };
}

function serviceClient(deps: SitePlatformDeps): OAuthClientCredentials | undefined {
  const { SITE_PLATFORM_CLIENT_ID: clientId, SITE_PLATFORM_CLIENT_SECRET: clientSecret } = deps.config;
  return clientId && clientSecret ? { ref: { kind: 'service' }, clientId, clientSecret } : undefined;
}

/**
 * doc2 Authentication 2: (a) the account's client named by `oauth_app_id` (given, or the reconnected row's);
 * (b) the service-wide client when both its id and secret are set; (c) the account's first registered client.
 */
export async function chooseOAuthClient(
  deps: SitePlatformDeps,
  accountId: string,
  input: { oauthAppId?: string; reconnectId?: string },
): Promise<OAuthClientCredentials> {
  let named = input.oauthAppId;
  if (!named && input.reconnectId) named = (await findConnection(deps.db, accountId, input.reconnectId))?.oauth_app_id ?? undefined;
  if (named) {
    const row = isUuid(named) ? await findOAuthClient(deps.db, accountId, named) : undefined;
    if (!row) throw clientNotFound();
    return credentialsOf(deps, row);
  }
  const service = serviceClient(deps);
  if (service) return service;
  const [first] = await listOAuthClients(deps.db, accountId);
  if (first) return credentialsOf(deps, first);
  throw new ApiError(
    409,
    'site_platform_oauth_client_missing',
    'no OAuth client: register one on the account (POST /api/site-platform/oauth-clients) or set SITE_PLATFORM_CLIENT_ID and _SECRET on the service',
  );
}

/** Callback step 1: the client the state names must still exist, under this account (or still be configured). */
export async function recheckOAuthClient(deps: SitePlatformDeps, accountId: string, ref: ClientRef): Promise<OAuthClientCredentials> {
  if (ref.kind === 'service') {
    const service = serviceClient(deps);
    if (!service)
      throw new ApiError(
        409,
        'site_platform_oauth_client_missing',
        'the service-wide OAuth client is no longer configured; start the connection again',
      );
    return service;
  }
  const row = isUuid(ref.id) ? await findOAuthClient(deps.db, accountId, ref.id) : undefined;
  if (!row)
    throw new ApiError(
      409,
      'site_platform_oauth_client_missing',
      'the OAuth client this connect started with is no longer registered on the account; start the connection again',
    );
  return credentialsOf(deps, row);
}
