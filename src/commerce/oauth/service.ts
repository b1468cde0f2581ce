import { ApiError } from '../../http/errors';
import { isShopDomain } from '../../clients/commerce';
import { requireCommerceApp } from '../app/service';
import { commerceClientOf, type CommerceDeps } from '../connections/deps';
import { saveInstalledShop } from '../connections/service';
import type { ConnectionRow } from '../connections/store';
import { tokenCipherOf } from '../connections/tokens';
import { registerStandardWebhooks, type WebhookRegistration } from '../connections/webhooks';
import { authorizeUrl } from './authorizeUrl';
import { verifyCallbackHmac, type CallbackQuery } from './callbackHmac';
import { isExpired, newState, readState, signState, stateKey } from './state';

export type OAuthDeps = CommerceDeps & { secretHashKey: string };

const invalidState = (why: string) => new ApiError(400, 'invalid_oauth_state', `the OAuth state is ${why}; start the connection again`);

/** Checks up front what the callback will need, so a connect never fails half-way on configuration. */
function requireConfigured(deps: CommerceDeps): string {
  tokenCipherOf(deps.config);
  if (!deps.config.PUBLIC_APP_URL) throw new ApiError(503, 'commerce_not_configured', 'PUBLIC_APP_URL is not set on the service');
  return deps.config.PUBLIC_APP_URL;
}

/** Step 1: the authorize URL on the shop, with a signed state good for 10 minutes. */
/** With COMMERCE_SHOP_DOMAIN_SUFFIX set, only shops under it: the code exchange sends the app's secret to the shop's host. */
function assertAllowedShop(suffix: string | undefined, shopDomain: string): void {
  const allowed = suffix?.replace(/^\./, '');
  if (allowed && !shopDomain.endsWith(`.${allowed}`)) {
    throw new ApiError(400, 'shop_domain_not_allowed', `shop_domain must be a shop under .${allowed}`, {
      errors: [{ path: 'body.shop_domain', message: `must end in .${allowed}` }],
    });
  }
}

export async function startConnect(deps: OAuthDeps, accountId: string, shopDomain: string) {
  assertAllowedShop(deps.config.COMMERCE_SHOP_DOMAIN_SUFFIX, shopDomain);
  const publicAppUrl = requireConfigured(deps);
  const app = await requireCommerceApp(deps.db, accountId);
  const state = newState(accountId, shopDomain);
  return {
    authorizeUrl: authorizeUrl({
      shopUrlTemplate: deps.config.COMMERCE_SHOP_URL_TEMPLATE,
      shopDomain,
      clientId: app.client_id,
      publicAppUrl,
      state: signState(stateKey(deps.secretHashKey), state),
    }),
    expiresAt: new Date(state.expiresAt * 1000),
  };
}

export interface ConnectOutcome {
  connection: ConnectionRow;
  webhooks: WebhookRegistration;
}

/**
 * Step 2, the platform's redirect back: state signature (400), callback hmac keyed by the app secret of the
 * state's account (401), state expiry and shop (400); then the code exchange, the shop read, the connection
 * upsert with the sealed token, and the standard webhooks.
 */
export async function completeConnect(
  deps: OAuthDeps,
  query: CallbackQuery & { code: string; shop: string; state: string },
): Promise<ConnectOutcome> {
  requireConfigured(deps);
  const state = readState(stateKey(deps.secretHashKey), query.state);
  if (!state) throw invalidState('not one this service issued');
  const app = await requireCommerceApp(deps.db, state.accountId);
  if (!verifyCallbackHmac(app.client_secret, query)) {
    throw new ApiError(401, 'invalid_hmac', "the callback signature does not match the app's client secret");
  }
  if (isExpired(state)) throw invalidState('expired (connects must finish within 10 minutes)');
  if (state.shopDomain !== query.shop || !isShopDomain(query.shop)) throw invalidState('for another shop');

  const client = commerceClientOf(deps);
  const grant = await client
    .exchangeCode(query.shop, { clientId: app.client_id, clientSecret: app.client_secret, code: query.code })
    .catch((err: ApiError) => {
      if (err.code === 'commerce_request_rejected')
        throw new ApiError(
          400,
          'invalid_oauth_code',
          'the platform refused the authorization code (used, expired or for another app); start the connection again',
          { upstreamStatus: err.extra.upstreamStatus },
        );
      throw err;
    });
  const shop = await client.getShop({ shopDomain: query.shop, accessToken: grant.accessToken });
  const connection = await saveInstalledShop(deps.db, state.accountId, {
    shopDomain: query.shop,
    shopId: shop.id,
    shopName: shop.name,
    adminTokenEnc: tokenCipherOf(deps.config).encrypt(grant.accessToken),
    scope: grant.scope,
  });
  const webhooks = await registerStandardWebhooks(deps, connection);
  return { connection, webhooks };
}
