import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { ApiError } from '../../http/errors';
import { route, type RouteDef } from '../../http/route';
import type { Config } from '../../config';
import { webhookEndpointUrl } from '../connections/webhooks';
import { callbackUrl } from '../oauth/authorizeUrl';
import { findCommerceApp, saveCommerceApp, secretHint, type AppRegistrationRow } from './service';

const tags = ['Commerce'];

const credential = (what: string) =>
  z
    .string()
    .min(1, { error: 'must not be empty' })
    .max(255, { error: 'must be at most 255 characters' })
    .regex(/^[\x21-\x7e]+$/, { error: `must be the ${what} as shown by the platform (printable characters, no spaces)` });

const appBody = z.strictObject({
  client_id: credential('client id').describe("The app's client id (API key) from the platform's partner dashboard."),
  client_secret: credential('client secret').describe(
    "The app's client secret. Stored as given (see the description of this route); never returned again, only its last 4 characters.",
  ),
});

const appSchema = z
  .object({
    provider: z.literal('commerce'),
    client_id: z.string(),
    client_secret_hint: z.string().describe('The last 4 characters of the client secret.'),
    redirect_uri: z.string().nullable().describe("Add this to the app's allowed redirection URLs (null while PUBLIC_APP_URL is unset)."),
    compliance_webhook_url: z
      .string()
      .nullable()
      .describe(
        "Set the app's privacy (compliance) webhook URL to this: the platform delivers customers/data_request, customers/redact and shop/redact there.",
      ),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'CommerceApp' });

const toAppJson = (row: AppRegistrationRow, config: Config): z.infer<typeof appSchema> => ({
  provider: 'commerce',
  client_id: row.client_id,
  client_secret_hint: secretHint(row.client_secret),
  redirect_uri: config.PUBLIC_APP_URL ? callbackUrl(config.PUBLIC_APP_URL) : null,
  compliance_webhook_url: config.PUBLIC_APP_URL ? webhookEndpointUrl(config) : null,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** The account's own commerce app (doc3: each account registers its own app; the service ships none). */
export function appRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'put',
        path: '/api/commerce/app',
        operationId: 'putCommerceApp',
        tags,
        auth: { kind: 'session', roles: ['owner', 'admin'] },
        summary: "Register (or replace) the account's commerce app.",
        description: [
          'Every shop connected on the account reuses this app. Owner or admin only.',
          '',
          '`client_secret` is stored **in plaintext on purpose**: the webhook receiver verifies the signature of every delivery with it',
          '(HMAC-SHA256 keyed by the secret), so an encrypted value would make every delivery fail with 401. It is never',
          'returned — not even in this response — only `client_secret_hint`, its last 4 characters.',
          '',
          'Replacing the app does not touch existing connections: shops connected through an earlier app keep its token',
          'until they are reconnected, and their deliveries are then verified with the new secret.',
        ].join('\n'),
        body: appBody,
        responses: { 200: { description: 'The registration', schema: appSchema } },
      },
      async ({ body, auth, deps }) => {
        const row = await saveCommerceApp(deps.db, accountOf(auth), { clientId: body.client_id, clientSecret: body.client_secret });
        return { body: toAppJson(row, deps.config) };
      },
    ),

    route(
      {
        method: 'get',
        path: '/api/commerce/app',
        operationId: 'getCommerceApp',
        tags,
        auth: { kind: 'session' },
        summary: "Read the account's commerce app registration (without its secret).",
        responses: { 200: { description: 'The registration', schema: appSchema } },
        errors: [{ status: 404, code: 'commerce_app_not_registered', description: 'The account has not registered its app yet.' }],
      },
      async ({ auth, deps }) => {
        const row = await findCommerceApp(deps.db, accountOf(auth));
        if (!row) throw new ApiError(404, 'commerce_app_not_registered', 'the account has not registered its commerce app');
        return { body: toAppJson(row, deps.config) };
      },
    ),
  ];
}
