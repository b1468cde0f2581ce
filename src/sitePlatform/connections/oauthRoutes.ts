import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import type { AuthSpec } from '../../auth/types';
import { refId } from '../../http/ids';
import { HTML_PAGE, HTML_PAGE_HEADERS } from '../../http/htmlPage';
import { route, type RouteDef } from '../../http/route';
import { projectNotFoundError } from '../../projects/docs';
import { CALLBACK_PATH } from './authorizeUrl';
import * as docs from './docs';
import { connectionSchema, oauthClientSchema, siteSchema, toConnectionJson, toOAuthClientJson, toSiteJson } from './json';
import { registerOAuthClient } from './oauthClients';
import { completeConnect, startConnect } from './oauthService';
import { connectSiteToken, MIN_SITE_TOKEN_LENGTH } from './siteTokenService';
import { INTENTS } from './state';
import { listOAuthClients, listSitesOfConnection } from './service';
import { connectWebhooksSchema, type ConnectWebhooks } from '../webhooks/connectAnswer';

const tags = ['Site platform'];
const adminOnly: AuthSpec = { kind: 'session', roles: ['owner', 'admin'] };
const notConfigured = {
  status: 503,
  code: 'site_platform_not_configured',
  description: 'SITE_PLATFORM_TOKEN_ENCRYPTION_KEY (or PUBLIC_APP_URL for OAuth) is not set on the service; checked before anything else.',
};
const upstream = [
  {
    status: 502,
    code: 'platform_upstream',
    description: 'The platform failed (5xx, network, malformed body); `upstreamStatus` carries its status.',
  },
  { status: 504, code: 'platform_timeout', description: 'The platform did not answer within SITE_PLATFORM_TIMEOUT_MS.' },
  { status: 502, code: 'platform_auth', description: 'The platform rejected the token it had just issued.' },
  {
    status: 500,
    code: 'site_platform_connect_not_persisted',
    description: 'The saved connection was not visible right after the write; connect again.',
  },
];

const connectBody = z
  .strictObject({
    intent: z
      .enum(INTENTS)
      .describe(
        'site_account_connect: the account default; site_project_connect: an override for `project_id`; site_reconnect: refresh the token of `connection_id` in place.',
      ),
    project_id: refId().optional(),
    site_id: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('For site_project_connect: the site the project binds to (default: the first site granted).'),
    connection_id: refId().optional(),
    oauth_app_id: refId()
      .optional()
      .describe("One of the account's registered OAuth clients; when absent: the service-wide client, else the account's first client."),
  })
  .superRefine((b, ctx) => {
    if (b.intent === 'site_project_connect' && !b.project_id)
      ctx.addIssue({ code: 'custom', path: ['project_id'], message: 'is required for site_project_connect' });
    if (b.intent === 'site_reconnect' && !b.connection_id)
      ctx.addIssue({ code: 'custom', path: ['connection_id'], message: 'is required for site_reconnect' });
  });

const siteTokenBody = z.strictObject({
  // The message never repeats the value: the token is never echoed.
  token: z
    .string()
    .trim()
    .min(MIN_SITE_TOKEN_LENGTH, { error: `must be at least ${MIN_SITE_TOKEN_LENGTH} characters` })
    .max(500, { error: 'is too long' }),
  project_id: refId().optional(),
  site_id: z.string().min(1).max(200).optional(),
});

const connectedSchema = z
  .object({ connection: connectionSchema, sites: z.array(siteSchema), webhooks: connectWebhooksSchema })
  .meta({ id: 'SitePlatformConnectResult' });

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const wantsJson = (accept: string) => /\bapplication\/json\b/i.test(accept) && !/\btext\/html\b/i.test(accept);

async function connected(
  deps: Parameters<typeof listSitesOfConnection>[0],
  accountId: string,
  row: Parameters<typeof toConnectionJson>[0],
  webhooks: ConnectWebhooks,
) {
  const sites = await listSitesOfConnection(deps, accountId, row.id);
  return { connection: toConnectionJson(row), sites: sites.map(toSiteJson), webhooks };
}

/** One line of the HTML callback page about webhook registration (counts only; never a URL). */
function webhooksLine(webhooks: ConnectWebhooks): string {
  if (webhooks.skipped === 'site_token_refused') return 'Webhooks must be added by hand: see your inbox.';
  if (webhooks.skipped) return 'Webhooks could not be registered now; they will be retried.';
  const failed = webhooks.registered.reduce((n, s) => n + s.failed.length, 0);
  const live = webhooks.registered.reduce((n, s) => n + s.created + s.adopted, 0);
  return `Webhooks: ${live} registered on ${webhooks.registered.length} site(s)${failed ? `, ${failed} failed (retried later)` : ''}.`;
}

/** Registering OAuth clients, the OAuth connect and its callback, and the pasted site token. */
export function oauthRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'post',
        path: '/api/site-platform/oauth-clients',
        operationId: 'registerSitePlatformOAuthClient',
        tags,
        auth: adminOnly,
        summary: "Register one of the account's own OAuth clients for the site platform.",
        description: docs.REGISTER_CLIENT,
        body: z.strictObject({
          name: z.string().trim().min(1).max(200).optional(),
          client_id: z.string().trim().min(1).max(200),
          client_secret: z.string().min(1).max(500),
        }),
        responses: { 201: { description: 'Registered', schema: oauthClientSchema } },
        errors: [
          notConfigured,
          { status: 409, code: 'site_platform_oauth_client_exists', description: 'This client_id is already registered on the account.' },
        ],
      },
      async ({ body, auth, deps }) => ({ status: 201, body: toOAuthClientJson(await registerOAuthClient(deps, accountOf(auth), body)) }),
    ),

    route(
      {
        method: 'get',
        path: '/api/site-platform/oauth-clients',
        operationId: 'listSitePlatformOAuthClients',
        tags,
        auth: { kind: 'session' },
        summary: "The account's registered OAuth clients, oldest first (the first is the fallback of client resolution).",
        responses: { 200: { description: 'Clients', schema: z.object({ data: z.array(oauthClientSchema) }) } },
      },
      async ({ auth, deps }) => ({ body: { data: (await listOAuthClients(deps.db, accountOf(auth))).map(toOAuthClientJson) } }),
    ),

    route(
      {
        method: 'get',
        path: '/api/site-platform/connect-options',
        operationId: 'getSitePlatformConnectOptions',
        tags,
        auth: { kind: 'session' },
        summary: "What connecting can offer: quick connect (the service-wide client), the account's clients, token storage.",
        description: docs.CONNECT_OPTIONS,
        responses: {
          200: {
            description: 'Options',
            schema: z.object({
              quick_connect: z.boolean(),
              token_storage_configured: z.boolean(),
              oauth_clients: z.array(oauthClientSchema),
            }),
          },
        },
      },
      async ({ auth, deps }) => ({
        body: {
          quick_connect: !!(deps.config.SITE_PLATFORM_CLIENT_ID && deps.config.SITE_PLATFORM_CLIENT_SECRET),
          token_storage_configured: !!deps.config.SITE_PLATFORM_TOKEN_ENCRYPTION_KEY,
          oauth_clients: (await listOAuthClients(deps.db, accountOf(auth))).map(toOAuthClientJson),
        },
      }),
    ),

    route(
      {
        method: 'post',
        path: '/api/site-platform/connect',
        operationId: 'startSitePlatformConnect',
        tags,
        auth: adminOnly,
        summary: 'Start an OAuth connect: get the URL to send the user to.',
        description: docs.CONNECT,
        body: connectBody,
        responses: {
          200: {
            description: 'Where to send the user',
            schema: z.object({ authorize_url: z.string(), state_expires_at: z.string(), client: z.enum(['account', 'service']) }),
          },
        },
        errors: [
          notConfigured,
          projectNotFoundError,
          { status: 404, code: 'site_platform_oauth_client_not_found', description: "`oauth_app_id` is not one of the account's clients." },
          {
            status: 404,
            code: 'site_platform_connection_not_found',
            description: "site_reconnect: `connection_id` is not one of the account's connections.",
          },
          { status: 409, code: 'site_platform_connection_disconnected', description: 'site_reconnect of a disconnected connection.' },
          {
            status: 409,
            code: 'site_platform_oauth_client_missing',
            description: 'No client at all: register one or configure the service-wide client.',
          },
        ],
      },
      async ({ body, auth, deps }) => {
        const started = await startConnect(deps, accountOf(auth), body);
        return { body: { authorize_url: started.authorizeUrl, state_expires_at: started.expiresAt.toISOString(), client: started.client } };
      },
    ),

    route(
      {
        method: 'get',
        path: CALLBACK_PATH,
        operationId: 'sitePlatformOAuthCallback',
        tags,
        auth: { kind: 'none' },
        summary: 'OAuth callback: the platform redirects the user here after consent.',
        description: docs.CALLBACK,
        query: z.looseObject({ code: z.string().min(1, { error: 'is required' }), state: z.string().min(1, { error: 'is required' }) }),
        responses: { 200: { description: 'Connected (JSON or HTML, by `Accept`)', schema: connectedSchema, otherMediaTypes: HTML_PAGE } },
        errors: [
          notConfigured,
          projectNotFoundError,
          ...upstream,
          { status: 400, code: 'invalid_oauth_state', description: 'The state is not ours or has expired.' },
          { status: 400, code: 'invalid_oauth_code', description: 'The platform refused the code.' },
          {
            status: 409,
            code: 'site_platform_oauth_client_missing',
            description: 'The client the connect started with no longer belongs to the account.',
          },
        ],
      },
      async ({ query, deps, ctx }) => {
        const { connection: row, webhooks } = await completeConnect(deps, query);
        const body = await connected(deps.db, row.account_id, row, webhooks);
        if (wantsJson(ctx.get('accept'))) return { body, headers: { 'cache-control': 'no-store' } };
        const names = body.sites.map((s) => escape(s.display_name)).join(', ') || 'no sites';
        return {
          headers: HTML_PAGE_HEADERS,
          body: `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Site platform connected</title></head><body><h1>Connected</h1><p>${names}</p><p>${escape(webhooksLine(webhooks))}</p><p>You can close this window.</p></body></html>\n`,
        };
      },
    ),

    route(
      {
        method: 'post',
        path: '/api/site-platform/site-token',
        operationId: 'connectSitePlatformSiteToken',
        tags,
        auth: adminOnly,
        summary: 'Connect with a pasted site API token.',
        description: docs.SITE_TOKEN,
        body: siteTokenBody,
        responses: { 201: { description: 'Connected', schema: connectedSchema } },
        errors: [
          notConfigured,
          projectNotFoundError,
          ...upstream,
          { status: 400, code: 'invalid_site_token', description: 'The platform did not accept the token.' },
          { status: 400, code: 'invalid_reference', description: '`site_id` is not a site the token reaches.' },
        ],
      },
      async ({ body, auth, deps }) => {
        const accountId = accountOf(auth);
        const { connection: row, webhooks } = await connectSiteToken(deps, accountId, body);
        return { status: 201, body: await connected(deps.db, accountId, row, webhooks), headers: { 'cache-control': 'no-store' } };
      },
    ),
  ];
}
