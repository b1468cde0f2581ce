import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { HTML_PAGE, HTML_PAGE_HEADERS } from '../../http/htmlPage';
import { route, type RouteDef } from '../../http/route';
import { isShopDomain } from '../../clients/commerce';
import { connectionRegistrationSchema, toConnectionJson, toRegistrationJson, toSubscriptionJson } from '../connections/json';
import { listSubscriptions } from '../connections/service';
import { callbackPage } from './callbackPage';
import { completeConnect, startConnect } from './service';
import * as docs from './docs';

const tags = ['Commerce'];

const shopDomain = z
  .string()
  .trim()
  .toLowerCase()
  .refine(isShopDomain, { error: "must be the shop's host name only, e.g. acme.commerce.test (no scheme, port or path)" })
  .describe(
    "The shop's host name, e.g. `acme.commerce.test`. Trimmed and lowercased; then it must be a DNS host name of two or more labels (a–z, 0–9, inner hyphens, ≤ 63 characters each, ≤ 253 in all) with no scheme, port, path or trailing dot.",
  );

const connectBody = z.strictObject({ shop_domain: shopDomain });

const callbackQuery = z.looseObject({
  code: z.string().min(1, { error: 'is required' }),
  shop: z.string().min(1, { error: 'is required' }),
  state: z.string().min(1, { error: 'is required' }),
  hmac: z.string().min(1, { error: 'is required' }),
  timestamp: z.string().optional(),
});

const wantsJson = (accept: string) => /\bapplication\/json\b/i.test(accept) && !/\btext\/html\b/i.test(accept);

/** Connect start (session) and the OAuth callback the platform redirects the merchant to (no auth: it is signed). */
export function oauthRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'post',
        path: '/api/commerce/connect',
        operationId: 'startCommerceConnect',
        tags,
        auth: { kind: 'session', roles: ['owner', 'admin'] },
        summary: docs.startCommerceConnectSummary,
        description: docs.startCommerceConnectDescription,
        body: connectBody,
        responses: {
          200: { description: 'Where to send the merchant', schema: z.object({ authorize_url: z.string(), state_expires_at: z.string() }) },
        },
        errors: [
          { status: 400, code: 'shop_domain_not_allowed', description: docs.shopDomainNotAllowedError },
          { status: 409, code: 'commerce_app_not_registered', description: "Register the account's app first (PUT /api/commerce/app)." },
          {
            status: 503,
            code: 'commerce_not_configured',
            description: 'PUBLIC_APP_URL or COMMERCE_TOKEN_ENCRYPTION_KEY is not set on the service.',
          },
        ],
      },
      async ({ body, auth, deps }) => {
        const { authorizeUrl, expiresAt } = await startConnect(deps, accountOf(auth), body.shop_domain);
        return { body: { authorize_url: authorizeUrl, state_expires_at: expiresAt.toISOString() } };
      },
    ),

    route(
      {
        method: 'get',
        path: '/api/oauth/commerce/callback',
        operationId: 'commerceOAuthCallback',
        tags,
        auth: { kind: 'none' },
        summary: docs.commerceOAuthCallbackSummary,
        description: docs.commerceOAuthCallbackDescription,
        query: callbackQuery,
        responses: {
          200: {
            description: 'Connected (JSON or HTML, by `Accept`)',
            schema: connectionRegistrationSchema,
            otherMediaTypes: HTML_PAGE,
          },
        },
        errors: [
          {
            status: 400,
            code: 'invalid_oauth_state',
            description: 'The state is not ours, has expired (10 minutes) or names another shop.',
          },
          { status: 401, code: 'invalid_hmac', description: 'The callback signature does not match.' },
          { status: 400, code: 'invalid_oauth_code', description: 'The platform refused the code (already used or expired).' },
          { status: 409, code: 'shop_connected_to_another_account', description: 'The shop is already connected to another account.' },
          {
            status: 502,
            code: 'commerce_unavailable',
            description: 'The platform failed during the exchange (503 when it did not answer).',
          },
          { status: 502, code: 'commerce_request_rejected', description: docs.commerceRequestRejectedError },
          {
            status: 503,
            code: 'commerce_not_configured',
            description: 'PUBLIC_APP_URL or COMMERCE_TOKEN_ENCRYPTION_KEY is not set on the service.',
          },
        ],
      },
      async ({ query, deps, ctx }) => {
        const outcome = await completeConnect(deps, { ...ctx.query, code: query.code, shop: query.shop, state: query.state });
        if (!wantsJson(ctx.get('accept'))) {
          return { body: callbackPage(outcome), headers: HTML_PAGE_HEADERS };
        }
        const { connection, webhooks } = outcome;
        return {
          headers: { 'cache-control': 'no-store' },
          body: {
            connection: {
              ...toConnectionJson(connection),
              webhook_subscriptions: (await listSubscriptions(deps.db, connection.account_id, connection.id)).map(toSubscriptionJson),
            },
            webhooks: toRegistrationJson(webhooks),
          },
        };
      },
    ),
  ];
}
