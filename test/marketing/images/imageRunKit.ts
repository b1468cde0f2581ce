import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Config } from '../../../src/config';
import { startImageSimulator, type ImageSimulator } from '../../../src/sandbox/images';
import { startModelSimulator, type ModelSimulator } from '../../../src/sandbox/model';
import type { CallResult } from '../../helpers/http';
import { harness } from '../../helpers/harness';
import { startPrivateApp, type PrivateApp } from '../../helpers/privateApp';
import { startTestWorker } from '../../helpers/workerProcess';

export interface ImageWorld {
  images: ImageSimulator;
  /** Null when the world runs without a chat model (the heuristic plans). */
  model: ModelSimulator | null;
  config: Config;
  taskQueue: string;
  app: PrivateApp;
  /** Another app on the same task queue with other config (e.g. IMAGE_WAIT_SECONDS 0). */
  appWith(config: Partial<Config>): Promise<PrivateApp>;
  stop(): Promise<void>;
}

export function imageConfig(images: ImageSimulator, model: ModelSimulator | null): Partial<Config> {
  return {
    IMAGE_API_URL: images.url,
    IMAGE_API_KEY: images.apiKey,
    IMAGE_MODEL: 'gpt-image-1',
    IMAGE_TIMEOUT_MS: 20_000,
    MODEL_API_URL: model?.url ?? 'http://127.0.0.1:9/v1',
    MODEL_API_KEY: model?.apiKey,
  };
}

/**
 * The image and (optionally) chat simulators, a worker of the product's activities pointed at them, and an app;
 * `config` (e.g. a site world's) applies to the worker and every app.
 */
export async function startImageWorld(options: { model?: boolean; config?: Partial<Config> } = {}): Promise<ImageWorld> {
  const [images, model] = await Promise.all([startImageSimulator(), options.model ? startModelSimulator() : Promise.resolve(null)]);
  const worker = await startTestWorker('images', { ...options.config, ...imageConfig(images, model) });
  const { taskQueue, config } = worker;
  const apps: PrivateApp[] = [];
  const appWith = async (extra: Partial<Config>) => {
    const app = await startPrivateApp([], { taskQueue, config: { ...options.config, ...imageConfig(images, model), ...extra } });
    apps.push(app);
    return app;
  };
  const app = await appWith({});
  return {
    images,
    model,
    config,
    taskQueue,
    app,
    appWith,
    async stop() {
      await Promise.all(apps.map((a) => a.close()));
      await worker.stop();
      await Promise.all([images.stop(), model?.stop()]);
    },
  };
}

export const suffix = () => randomBytes(3).toString('hex');

/** A paragraph of `words` words about `topic`. */
export function paragraph(topic: string, words = 60): string {
  const filler = `${topic} matters because installers measure results and owners compare costs over the seasons`.split(' ');
  return `<p>${Array.from({ length: words }, (_, i) => filler[i % filler.length]).join(' ')}.</p>`;
}

/** A content item of the account (dashboard create), answering its id. */
export async function createItem(app: PrivateApp, token: string, body: Record<string, unknown>): Promise<string> {
  const res = await app.call('POST', '/api/marketing/content', { token, body: { title: 'Heat pumps explained', ...body } });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

export function runImages(
  app: PrivateApp,
  token: string,
  contentId: string,
  options: { key?: string; body?: Record<string, unknown>; agent?: boolean } = {},
): Promise<CallResult> {
  return app.call('POST', `/api${options.agent ? '/agent' : ''}/marketing/content/${contentId}/images`, {
    token,
    body: options.body ?? {},
    headers: options.key ? { 'Idempotency-Key': options.key } : {},
  });
}

/** The account's image units by status. */
export async function unitsOf(accountId: string): Promise<Record<'reserved' | 'consumed' | 'refunded', number>> {
  const rows: Array<{ status: 'reserved' | 'consumed' | 'refunded'; n: string }> = await harness()
    .db('image_allowance_units')
    .where({ account_id: accountId })
    .groupBy('status')
    .select('status', harness().db.raw('count(*) as n'));
  const out = { reserved: 0, consumed: 0, refunded: 0 };
  for (const r of rows) out[r.status] = Number(r.n);
  return out;
}

export async function setPlan(
  accountId: string,
  plan: { image_allowance_monthly?: number | null; billing_standing?: string },
): Promise<void> {
  await harness()
    .db('account_plans')
    .insert({ account_id: accountId, ...plan })
    .onConflict('account_id')
    .merge();
}
