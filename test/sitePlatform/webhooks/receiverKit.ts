import { createHash, createHmac, randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../../../src/app/activities';
import type { Config } from '../../../src/config';
import { createTokenCipher } from '../../../src/crypto/tokenEnvelope';
import type { AppDeps } from '../../../src/deps';
import { createLogger, type Logger } from '../../../src/logger';
import type { SitePlatformSimulator } from '../../../src/sandbox/sitePlatform';
import { saveBinding } from '../../../src/sitePlatform/connections/store';
import { urlTokenHash, urlTokenOf } from '../../../src/sitePlatform/webhooks/urlToken';
import { SiteEventRelay } from '../../../src/sitePlatform/webhooks/relay';
import { createWorker } from '../../../src/temporal/worker';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { callAt, type CallResult } from '../../helpers/http';
import { newProjectId } from '../../helpers/projects';
import { eventually } from '../../jobs/jobTestKit';
import { ALL_SCOPES, startSiteWorld, type SiteWorld } from '../connections/fixtures';

export { eventually };

/** Every log line of the world's app and worker, as written (JSON text), so tests can look for leaked secrets. */
export class CapturedLog {
  readonly lines: string[] = [];
  readonly logger: Logger;

  constructor() {
    const lines = this.lines;
    this.logger = createLogger(
      'debug',
      new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
  }

  text(): string {
    return this.lines.join('');
  }
}

/**
 * A site world for the receiver: the simulator, a private app (world config: token key, service-wide client secret,
 * captured logger), a worker of the product's activities with the same config on its own task queue, and the
 * site-event relay handing events to that queue, as the API process runs it.
 */
export interface ReceiverWorld {
  world: SiteWorld;
  config: Config;
  log: CapturedLog;
  serviceSecret: string;
  relay: SiteEventRelay;
  taskQueue: string;
  close(): Promise<void>;
}

/** `sim` and `selfPublicUrl` pass through to startSiteWorld (an end-to-end test registers webhooks at its own app). */
export async function startReceiverWorld(options: { sim?: SitePlatformSimulator; selfPublicUrl?: boolean } = {}): Promise<ReceiverWorld> {
  const log = new CapturedLog();
  const serviceSecret = `svc_${randomBytes(16).toString('hex')}`;
  const taskQueue = `site-events-${randomBytes(4).toString('hex')}`;
  const world = await startSiteWorld(
    { SITE_PLATFORM_CLIENT_ID: 'svc-client', SITE_PLATFORM_CLIENT_SECRET: serviceSecret },
    { logger: log.logger, ...options },
  );
  const h = harness();
  const config = { ...h.deps.config, ...world.config } as Config;
  const { worker, connection }: { worker: Worker; connection: NativeConnection } = await createWorker({
    address: h.temporalAddress,
    namespace: h.deps.temporal.namespace,
    taskQueue,
    bundle: h.bundle,
    activities: createActivities({ config, db: h.db, logger: log.logger }),
  });
  const running = worker.run();
  const relayDeps: AppDeps = { ...h.deps, config, logger: log.logger, temporal: { ...h.deps.temporal, taskQueue } };
  const relay = new SiteEventRelay(relayDeps).start();
  return {
    world,
    config,
    log,
    serviceSecret,
    relay,
    taskQueue,
    async close() {
      await relay.stop();
      worker.shutdown();
      await running;
      await connection.close();
      await world.close();
    },
  };
}

export interface TestConnection {
  account: TestAccount;
  accountId: string;
  connectionId: string;
  urlToken: string;
  authKind: 'oauth' | 'site_token';
  siteIds: string[];
  /** The secret the platform signs this connection's deliveries with (OAuth only). */
  secret?: string;
}

/**
 * A connection written as a connect with webhook registration leaves it (the receiver only reads it): the token
 * sealed under the world's key (a real simulator token for the sites), the sites and what the grant reaches, and
 * the URL token hash. `ownClient` gives an OAuth connection its own registered client (oauth_app_id).
 */
export async function newConnection(
  rw: ReceiverWorld,
  options: {
    authKind?: 'oauth' | 'site_token';
    account?: TestAccount;
    siteIds?: string[];
    ownClient?: boolean;
    tokenHash?: string | null;
    disconnected?: boolean;
  } = {},
): Promise<TestConnection> {
  const { db, deps } = harness();
  const account = options.account ?? (await newAccount('Site Co'));
  const authKind = options.authKind ?? 'oauth';
  const siteIds = options.siteIds ?? [addSimSite(rw)];
  const cipher = createTokenCipher(rw.config.SITE_PLATFORM_TOKEN_ENCRYPTION_KEY);
  let oauthAppId: string | null = null;
  let secret = authKind === 'oauth' ? rw.serviceSecret : undefined;
  if (authKind === 'oauth' && options.ownClient) {
    secret = `own_${randomBytes(16).toString('hex')}`;
    const [client] = await db('site_platform_oauth_clients')
      .insert({
        account_id: account.accountId,
        client_id: `cid_${randomBytes(4).toString('hex')}`,
        client_secret_enc: cipher.encrypt(secret),
      })
      .returning('id');
    oauthAppId = client.id;
  }
  const token = rw.world.sim.issueToken({ scopes: ALL_SCOPES, siteIds });
  const [connection] = await db('site_platform_connections')
    .insert({
      account_id: account.accountId,
      access_token_enc: options.disconnected ? null : cipher.encrypt(token),
      auth_kind: authKind,
      purpose: 'account_default',
      scope: ALL_SCOPES.join(' '),
      oauth_app_id: oauthAppId,
      installed_at: new Date(),
      disconnected_at: options.disconnected ? new Date() : null,
    })
    .returning('id');
  const urlToken = urlTokenOf(deps.secretHashKey, connection.id);
  await db('site_platform_connections')
    .where({ id: connection.id })
    .update({ webhook_url_token_hash: options.tokenHash === undefined ? urlTokenHash(urlToken) : options.tokenHash });
  for (const siteId of siteIds) {
    await db('site_platform_sites')
      .insert({ account_id: account.accountId, connection_id: connection.id, site_id: siteId, display_name: `Site ${siteId}` })
      .onConflict(['account_id', 'site_id'])
      .ignore();
    await db('site_platform_connection_sites').insert({ account_id: account.accountId, connection_id: connection.id, site_id: siteId });
  }
  return { account, accountId: account.accountId, connectionId: connection.id, urlToken, authKind, siteIds, secret };
}

export function addSimSite(rw: ReceiverWorld): string {
  return rw.world.sim.addSite({ id: `site_${randomBytes(6).toString('hex')}`, displayName: `Hooks ${randomBytes(2).toString('hex')}` }).id;
}

/** A project of the account bound (inherit) to the site. */
export async function bindProject(accountId: string, siteId: string, kind: 'platform_hosted' | 'service_hosted'): Promise<string> {
  const projectId = await newProjectId(accountId, { kind });
  await saveBinding(harness().db, accountId, projectId, { override_mode: 'inherit', connection_id: null, site_id: siteId });
  return projectId;
}

/** The platform's signature: hex HMAC-SHA256 of `<timestamp>:<rawBody>` under the client secret. */
export const signDelivery = (secret: string, timestamp: string, body: Buffer) =>
  createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(`${timestamp}:`), body]))
    .digest('hex');

export const receiverPath = (connectionId: string, urlToken: string) => `/api/webhooks/site-platform/${connectionId}/${urlToken}`;

export interface DeliverOptions {
  /** Sign with this secret instead of the connection's. */
  secret?: string;
  /** ms since the epoch, as a string; now by default. */
  timestamp?: string;
  /** Send this signature header instead of computing one ('' sends none). */
  signature?: string;
  urlToken?: string;
  connectionId?: string;
  /** Sign even a site-token connection's delivery (the platform does not). */
  unsigned?: boolean;
}

/** Posts one delivery as the platform sends it: the exact bytes, signed for OAuth connections. */
export async function deliver(rw: ReceiverWorld, c: TestConnection, body: unknown, options: DeliverOptions = {}): Promise<CallResult> {
  const raw = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8');
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (c.authKind === 'oauth' && !options.unsigned) {
    const timestamp = options.timestamp ?? String(Date.now());
    headers['x-webflow-timestamp'] = timestamp;
    const signature = options.signature ?? signDelivery(options.secret ?? c.secret!, timestamp, raw);
    if (signature !== '') headers['x-webflow-signature'] = signature;
  }
  return callAt(rw.world.app.baseUrl, 'POST', receiverPath(options.connectionId ?? c.connectionId, options.urlToken ?? c.urlToken), {
    rawBody: raw,
    headers,
  });
}

export const envelope = (triggerType: string, payload: Record<string, unknown>) => ({ triggerType, payload });

/** A form_submission payload as the platform's reference shows it. */
export function formPayload(siteId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Contact us',
    siteId,
    data: { Name: 'Zoë Ørsted', Email: `zoe-${randomBytes(4).toString('hex')}@example.test`, Message: 'Crème brûlée ☕' },
    submittedAt: new Date().toISOString(),
    id: `sub_${randomBytes(8).toString('hex')}`,
    formId: `form_${randomBytes(6).toString('hex')}`,
    formElementId: `el_${randomBytes(6).toString('hex')}`,
    ...overrides,
  };
}

export async function eventRows(accountId: string) {
  return harness().db('site_platform_inbound_events').where({ account_id: accountId }).orderBy('seq');
}

export async function unverifiedRows(connectionId: string) {
  return harness().db('site_platform_inbound_events').where({ connection_id: connectionId, verified: false }).orderBy('seq');
}

/** Waits until the event is fanned out and answers its row. */
export async function fannedOut(accountId: string, siteId: string, eventId: string, timeoutMs = 20_000) {
  return eventually(
    () => harness().db('site_platform_inbound_events').where({ account_id: accountId, site_id: siteId, event_id: eventId }).first(),
    (row) => Boolean(row?.fanned_out_at),
    timeoutMs,
    `event ${eventId} to be fanned out`,
  );
}

export const bodyEventId = (triggerType: string, raw: string) => createHash('sha256').update(`${triggerType}:${raw}`).digest('hex');
