import { randomUUID } from 'node:crypto';
import type { NativeConnection, Worker } from '@temporalio/worker';
import type { Config } from '../../../src/config';
import { createActivities } from '../../../src/app/activities';
import { startSitePlatformSimulator } from '../../../src/sandbox/sitePlatform';
import { createWorker } from '../../../src/temporal/worker';
import { harness } from '../../helpers/harness';
import { startPrivateApp, type PrivateApp } from '../../helpers/privateApp';
import { newKey, type SiteWorld } from '../connections/fixtures';

export const backfillPath = (projectId: string) => `/api/builder/site-platform/${projectId}/forms/backfill`;

export interface FormsWorker {
  worker: Worker;
  stop(): Promise<void>;
}

/** A worker of the product's activities with the world's configuration (platform URL, token key), on its own queue. */
export async function startFormsWorker(config: Partial<Config>, taskQueue: string): Promise<FormsWorker> {
  const { deps, bundle, temporalAddress, temporalSecurity } = harness();
  const { worker, connection }: { worker: Worker; connection: NativeConnection } = await createWorker({
    address: temporalAddress,
    security: temporalSecurity,
    namespace: deps.temporal.namespace,
    taskQueue,
    bundle,
    activities: createActivities({ config: { ...deps.config, ...config }, db: deps.db, logger: deps.logger }),
  });
  const running = worker.run();
  return {
    worker,
    async stop() {
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}

/**
 * The simulator, a worker and a private app whose jobs run on that worker. The simulator's clock is the real one
 * plus `clock.offsetMs`: moving it back keeps a spent rate-limit window spent with a Retry-After beyond the client's
 * one-minute wait, so a refusal is answered at once whether the local bucket or the platform gives it.
 */
export interface FormsWorld extends SiteWorld {
  taskQueue: string;
  clock: { offsetMs: number };
  worker: FormsWorker | null;
  /** Another app on the same world and worker, with config overrides (e.g. a zero wait bound). */
  appWith(config: Partial<Config>): Promise<PrivateApp>;
}

export async function startFormsWorld(options: { worker?: boolean } = {}): Promise<FormsWorld> {
  const clock = { offsetMs: 0 };
  const sim = await startSitePlatformSimulator({ now: () => Date.now() + clock.offsetMs });
  const config: Partial<Config> = {
    SITE_PLATFORM_API_URL: sim.baseUrl,
    SITE_PLATFORM_AUTH_URL: sim.baseUrl,
    SITE_PLATFORM_TOKEN_ENCRYPTION_KEY: newKey(),
    SITE_PLATFORM_TOKEN_ENCRYPTION_KEY_PREVIOUS: undefined,
    SITE_PLATFORM_CLIENT_ID: undefined,
    SITE_PLATFORM_CLIENT_SECRET: undefined,
    SITE_PLATFORM_TIMEOUT_MS: 2_000,
  };
  const taskQueue = `forms-backfill-${randomUUID()}`;
  const worker = options.worker === false ? null : await startFormsWorker(config, taskQueue);
  const apps: PrivateApp[] = [];
  const appWith = async (extra: Partial<Config>) => {
    const app = await startPrivateApp([], { config: { ...config, ...extra }, taskQueue });
    apps.push(app);
    return app;
  };
  const app = await appWith({});
  return {
    sim,
    app,
    config,
    taskQueue,
    clock,
    worker,
    appWith,
    close: async () => {
      for (const a of apps) await a.close();
      await worker?.stop();
      await sim.stop();
    },
  };
}

/** A published site's form with `count` submissions (distinct emails); answers the form and the submissions. */
export function seedSubmissions(world: SiteWorld, siteId: string, count: number, options: { publish?: boolean; formName?: string } = {}) {
  const form = world.sim.addForm(siteId, { displayName: options.formName ?? 'Contact', fields: ['Name', 'Email'] });
  const submissions = Array.from({ length: count }, (_, i) =>
    world.sim.addSubmission(siteId, form.id, { Name: `Lead ${i}`, Email: `lead${i}-${form.id.slice(0, 6)}@example.test` }),
  );
  if (options.publish !== false) world.sim.site(siteId)!.lastPublished = new Date().toISOString();
  return { form, submissions };
}

export async function ledgerCount(accountId: string): Promise<number> {
  const [{ n }] = await harness().db('form_submissions').where({ account_id: accountId }).count({ n: '*' });
  return Number(n);
}
