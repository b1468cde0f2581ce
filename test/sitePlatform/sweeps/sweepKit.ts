import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../../../src/app/activities';
import { createApp } from '../../../src/app/app';
import { SCHEDULES } from '../../../src/app/schedules';
import type { Config } from '../../../src/config';
import { createTokenCipher } from '../../../src/crypto/tokenEnvelope';
import { createMetrics } from '../../../src/http/metrics';
import { startSitePlatformSimulator } from '../../../src/sandbox/sitePlatform';
import { saveBinding } from '../../../src/sitePlatform/connections/store';
import { createWorker } from '../../../src/temporal/worker';
import type { ArgsOf, WorkflowContract } from '../../../workflows/defineWorkflow';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { callAt, type CallResult } from '../../helpers/http';
import { newProjectId } from '../../helpers/projects';
import { OPS } from '../operations/fixtures';
import {
  addClient,
  addSite,
  authorize,
  connectWithSiteToken,
  newKey,
  openCallback,
  registerClient,
  startSiteWorld,
  type SiteWorld,
} from '../connections/fixtures';

/**
 * The simulator, a private app pointing at it (connects go through the real routes), and a worker of its own whose
 * activities use the same configuration (platform URL, token keys; PUBLIC_APP_URL is the harness app's), so the
 * sweeps run end to end through Temporal against the simulator and Postgres.
 */
export interface SweepWorld {
  site: SiteWorld;
  config: Config;
  taskQueue: string;
  /** The current token key and the previous one (set as SITE_PLATFORM_TOKEN_ENCRYPTION_KEY_PREVIOUS). */
  keys: { current: string; previous: string };
  run<T = any, C extends WorkflowContract = WorkflowContract>(contract: C, input?: ArgsOf<C>[0], timeoutMs?: number): Promise<T>;
  /** POST /api/cron/<name> on the real app with the product's schedule table, its runs on this world's worker. */
  cron(name: string, token?: string, body?: unknown): Promise<CallResult>;
  /** Any call to that app (e.g. the operators' schedule runs routes). */
  callApp(method: string, path: string, token?: string): Promise<CallResult>;
  close(): Promise<void>;
}

export async function startSweepWorld(): Promise<SweepWorld> {
  const { deps, bundle, temporalAddress, db } = harness();
  const { logger } = deps;
  const keys = { current: newKey(), previous: newKey() };
  // Platform retries 50 ms apart (not ten minutes), so a test can wait for every delivery to settle.
  const sim = await startSitePlatformSimulator({ webhookRetryIntervalMs: 50 });
  const site = await startSiteWorld(
    { SITE_PLATFORM_TOKEN_ENCRYPTION_KEY: keys.current, SITE_PLATFORM_TOKEN_ENCRYPTION_KEY_PREVIOUS: keys.previous },
    { sim },
  );
  const config: Config = { ...deps.config, ...site.config };
  // Deliveries reach the receiver on the harness app (PUBLIC_APP_URL): it opens the OAuth client secret with the same keys.
  const saved = {
    SITE_PLATFORM_TOKEN_ENCRYPTION_KEY: deps.config.SITE_PLATFORM_TOKEN_ENCRYPTION_KEY,
    SITE_PLATFORM_TOKEN_ENCRYPTION_KEY_PREVIOUS: deps.config.SITE_PLATFORM_TOKEN_ENCRYPTION_KEY_PREVIOUS,
  };
  Object.assign(deps.config, {
    SITE_PLATFORM_TOKEN_ENCRYPTION_KEY: keys.current,
    SITE_PLATFORM_TOKEN_ENCRYPTION_KEY_PREVIOUS: keys.previous,
  });
  const taskQueue = `site-sweeps-${randomUUID()}`;
  const worker: { worker: Worker; connection: NativeConnection } = await createWorker({
    address: temporalAddress,
    namespace: deps.temporal.namespace,
    taskQueue,
    bundle,
    activities: createActivities({ config, db, logger }),
  });
  const running = worker.worker.run();

  const appDeps = { ...deps, config, schedules: SCHEDULES, metrics: createMetrics(false), temporal: { ...deps.temporal, taskQueue } };
  const server: Server = createApp(appDeps).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const cronUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    site,
    config,
    taskQueue,
    keys,
    async run(contract, input = {}, timeoutMs = 30_000) {
      const { client } = harness();
      const handle = await client.workflow.start(contract.workflowType, {
        taskQueue,
        workflowId: `test-${contract.workflowType}-${randomUUID()}`,
        args: [input],
      });
      return client.withDeadline(Date.now() + timeoutMs, () => handle.result()) as Promise<any>;
    },
    cron: (name, token = config.CRON_SECRET!, body?: unknown) => callAt(cronUrl, 'POST', `/api/cron/${name}`, { token, body }),
    callApp: (method, path, token = config.CRON_SECRET!) => callAt(cronUrl, method, path, { token }),
    async close() {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      worker.worker.shutdown();
      await running;
      await worker.connection.close();
      await site.close();
      await sim.stop();
      Object.assign(deps.config, saved);
    },
  };
}

export interface OAuthTenant {
  account: TestAccount;
  accountId: string;
  siteId: string;
  connectionId: string;
  client: { clientId: string; clientSecret: string };
}

/** A fresh account connected by OAuth (the real connect routes) to one new site. */
export async function oauthTenant(world: SweepWorld): Promise<OAuthTenant> {
  const account = await newAccount();
  const siteId = addSite(world.site, 'Sweep').id;
  const client = addClient(world.site, [siteId]);
  await registerClient(world.site, account, client);
  const connected = await openCallback(await authorize(world.site, account, { intent: 'site_account_connect' }));
  assert.equal(connected.status, 200, connected.text);
  return { account, accountId: account.accountId, siteId, connectionId: connected.body.connection.id, client };
}

/** A site-token connection (account default, or a project override with `project_id`). Answers its connection id. */
export async function siteTokenConnection(
  world: SweepWorld,
  account: TestAccount,
  siteIds: string[],
  extra: Record<string, unknown> = {},
): Promise<string> {
  const { body } = await connectWithSiteToken(world.site, account, siteIds, extra);
  const id = body.connection?.id ?? body.id;
  assert.ok(id, JSON.stringify(body));
  return id;
}

/** A project on the platform CMS, bound (inherit) to the site. */
export async function platformProject(world: SweepWorld, account: TestAccount, siteId: string): Promise<string> {
  const projectId = await newProjectId(account.accountId);
  await saveBinding(harness().db, account.accountId, projectId, { override_mode: 'inherit', connection_id: null, site_id: siteId });
  const res = await world.site.app.call('POST', OPS, {
    token: account.agentKey,
    body: { action: 'project_cms_provider_set', project_id: projectId, provider: 'site_platform', site_id: siteId, confirm: true },
  });
  assert.equal(res.status, 200, res.text);
  return projectId;
}

export const connectionRow = (id: string) => harness().db('site_platform_connections').where({ id }).first();

/** The plaintext token of a live connection (tests only). */
export async function tokenOf(world: SweepWorld, connectionId: string): Promise<string> {
  const row = await connectionRow(connectionId);
  return createTokenCipher(world.keys.current, world.keys.previous).decrypt(row.access_token_enc).plaintext;
}

/** Revokes an OAuth connection's token on the platform, as an uninstall does: the platform answers 401 from now on. */
export async function revokeOnPlatform(world: SweepWorld, tenant: OAuthTenant): Promise<void> {
  const res = await fetch(`${world.site.sim.baseUrl}/oauth/revoke_authorization`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: tenant.client.clientId,
      client_secret: tenant.client.clientSecret,
      access_token: await tokenOf(world, tenant.connectionId),
    }),
  });
  assert.deepEqual(await res.json(), { didRevoke: true });
}

/**
 * The site token was regenerated on the platform: the stored one (sealed properly under the current key) is one the
 * platform no longer knows, so it answers 401.
 */
export async function replaceWithUnknownToken(world: SweepWorld, connectionId: string): Promise<void> {
  const sealed = createTokenCipher(world.keys.current).encrypt(randomBytes(32).toString('hex'));
  await harness().db('site_platform_connections').where({ id: connectionId }).update({ access_token_enc: sealed });
}

/** Moves the last counted rejection `minutes` into the past (as if the previous run was that long ago). */
export async function ageLastCheck(connectionId: string, minutes: number): Promise<void> {
  const { db } = harness();
  await db('site_platform_connections')
    .where({ id: connectionId })
    .update({ token_checked_at: db.raw('now() - make_interval(mins => ?)', [minutes]) });
}

/** Moves a connection's install `hours` into the past. */
export async function ageInstall(connectionId: string, hours: number): Promise<void> {
  const { db } = harness();
  await db('site_platform_connections')
    .where({ id: connectionId })
    .update({ installed_at: db.raw('now() - make_interval(hours => ?)', [hours]) });
}

/** The account's inbox items of one kind, oldest first. */
export async function inboxItems(accountId: string, kind: string) {
  return harness().db('inbox_items').where({ account_id: accountId, kind }).orderBy('created_at');
}

/** The entry a sweep summary names for a connection. */
export function entryFor(summary: { connections: Array<{ connection_id: string }> }, connectionId: string): any {
  return summary.connections.find((c) => c.connection_id === connectionId);
}

/** The platform's registrations on a site (live simulator state). */
export const hooksOn = (world: SweepWorld, siteId: string) => world.site.sim.siteData(siteId).webhooks;

/** The receiver URL a connection's registrations must use with the world's PUBLIC_APP_URL. */
export { expectedReceiverUrl } from '../../../src/sitePlatform/webhooks/registration';
