import type { Config } from '../../../src/config';
import { startModelSimulator, type ModelSimulator } from '../../../src/sandbox/model';
import { eventually } from '../../jobs/jobTestKit';
import type { CallResult } from '../../helpers/http';
import { startPrivateApp, type PrivateApp } from '../../helpers/privateApp';
import { startTestWorker } from '../../helpers/workerProcess';
import { startSiteWorld, type SiteWorld } from '../../sitePlatform/connections/fixtures';
import { newTenant, type Tenant } from '../../sitePlatform/operations/fixtures';

/**
 * The chat-model simulator, the site platform simulator with a connected tenant (a site, a collection, a project
 * bound to the site), a worker of the product's activities on a task queue of its own, and an app that starts turns
 * on it — all with the same configuration.
 */
export interface TurnWorld {
  model: ModelSimulator;
  site: SiteWorld;
  tenant: Tenant;
  app: PrivateApp;
  config: Partial<Config>;
  taskQueue: string;
  /** Another tenant on the same simulators, for cross-account checks. */
  newTenant(): Promise<Tenant>;
  close(): Promise<void>;
}

export async function startTurnWorld(config: Partial<Config> = {}, appConfig: Partial<Config> = {}): Promise<TurnWorld> {
  const model = await startModelSimulator();
  const site = await startSiteWorld();
  const shared: Partial<Config> = { ...site.config, MODEL_API_URL: model.url, MODEL_API_KEY: model.apiKey, ...config };
  const worker = await startTestWorker('ai-turns', shared);
  const app = await startPrivateApp([], { config: { ...shared, ...appConfig }, taskQueue: worker.taskQueue });
  const tenant = await newTenant(site);
  return {
    model,
    site,
    tenant,
    app,
    config: shared,
    taskQueue: worker.taskQueue,
    newTenant: () => newTenant(site),
    async close() {
      await app.close();
      await worker.stop();
      await site.close();
      await model.stop();
    },
  };
}

/** A chat message scripting the simulator: each `/tool` line one tool call, in order (see src/sandbox/model/tools.ts). */
export const script = (...lines: string[]) => lines.join('\n');
export const toolLine = (name: string, args: Record<string, unknown> = {}) => `/tool ${name} ${JSON.stringify(args)}`;

/** Polls a turn until `done` holds (10 s by default). */
export function pollUntil(
  app: PrivateApp,
  token: string,
  turnId: string,
  done: (res: CallResult) => boolean,
  timeoutMs = 20_000,
  agent = true,
): Promise<CallResult> {
  return eventually(
    () => app.call('GET', `/api${agent ? '/agent' : ''}/marketing/ai/turns/${turnId}`, { token }),
    done,
    timeoutMs,
    `turn ${turnId}`,
  );
}

export const finished = (res: CallResult) => ['completed', 'failed', 'cancelled'].includes(res.body?.status);
