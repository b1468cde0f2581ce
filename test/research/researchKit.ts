import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../../src/app/activities';
import type { Config } from '../../src/config';
import { startModelSimulator, type ModelSimulator } from '../../src/sandbox/model';
import { articleHtml, startPageServer, type PageServer } from '../../src/sandbox/pages';
import { startSearchSimulator, type SearchSimulator } from '../../src/sandbox/search';
import { createWorker } from '../../src/temporal/worker';
import type { CallResult } from '../helpers/http';
import { harness } from '../helpers/harness';
import { startPrivateApp, type PrivateApp } from '../helpers/privateApp';

export interface ResearchWorld {
  search: SearchSimulator;
  /** Null when the world runs without a model key (fallback extraction). */
  model: ModelSimulator | null;
  pages: PageServer;
  config: Config;
  taskQueue: string;
  /** The product's routes, starting jobs on this world's task queue. */
  app: PrivateApp;
  stop(): Promise<void>;
}

export interface WorldOptions {
  /** Worker config on top of the simulators' (e.g. SEARCH_MONTHLY_CAP). */
  config?: Partial<Config>;
  /** The app's config (e.g. RESEARCH_WAIT_SECONDS). */
  appConfig?: Partial<Config>;
  /** false: no model key, the fallback extractor runs. */
  model?: boolean;
}

/** The research providers' config pointed at the simulators (loopback pages allowed). */
export function providerConfig(search: SearchSimulator, model: ModelSimulator | null): Partial<Config> {
  return {
    SEARCH_API_URL: search.url,
    SEARCH_API_KEY: search.apiKey,
    MODEL_API_URL: model?.url ?? 'http://127.0.0.1:9/v1',
    MODEL_API_KEY: model?.apiKey,
    FETCH_ALLOW_PRIVATE_HOSTS: true,
    FETCH_TIMEOUT_MS: 10_000,
  };
}

/** Search and model simulators, a page server, a worker of the product's activities pointed at them, and an app. */
export async function startResearchWorld(options: WorldOptions = {}): Promise<ResearchWorld> {
  const { deps, bundle, temporalAddress, temporalSecurity } = harness();
  const [search, model, pages] = await Promise.all([
    startSearchSimulator(),
    options.model === false ? Promise.resolve(null) : startModelSimulator(),
    startPageServer(),
  ]);
  const config: Config = { ...deps.config, ...providerConfig(search, model), ...options.config };
  const taskQueue = `research-${randomBytes(4).toString('hex')}`;
  const { worker, connection }: { worker: Worker; connection: NativeConnection } = await createWorker({
    address: temporalAddress,
    security: temporalSecurity,
    namespace: deps.temporal.namespace,
    taskQueue,
    bundle,
    activities: createActivities({ config, db: deps.db, logger: deps.logger }),
  });
  const running = worker.run();
  const app = await startPrivateApp([], { taskQueue, config: options.appConfig });
  return {
    search,
    model,
    pages,
    config,
    taskQueue,
    app,
    async stop() {
      await app.close();
      worker.shutdown();
      await running;
      await connection.close();
      await Promise.all([search.stop(), model?.stop(), pages.stop()]);
    },
  };
}

export const suffix = () => randomBytes(3).toString('hex');

export interface Articles {
  keyword: string;
  urls: string[];
  paths: string[];
}

/**
 * `count` fact-bearing articles about `keyword` on the page server, answered by the search simulator for that
 * keyword (extra results, e.g. an oversized page, go after them).
 */
export function publishArticles(
  world: ResearchWorld,
  keyword: string,
  count: number,
  extra: Array<{ path: string; title: string }> = [],
): Articles {
  const base = `/a/${suffix()}`;
  const paths = Array.from({ length: count }, (_, i) => `${base}/${i}`);
  paths.forEach((path, i) =>
    world.pages.setPage(path, { html: articleHtml({ title: `${keyword} report ${i + 1}`, topic: keyword, paragraphs: 4 }) }),
  );
  const all = [...paths.map((path, i) => ({ path, title: `${keyword} report ${i + 1}` })), ...extra];
  world.search.setResults(
    keyword,
    all.map((a) => ({ title: a.title, url: world.pages.url(a.path), description: `About ${keyword}.` })),
  );
  return { keyword, urls: all.map((a) => world.pages.url(a.path)), paths: all.map((a) => a.path) };
}

/** A content item of the account (dashboard create), answering its id. */
export async function createItem(world: ResearchWorld, token: string, body: Record<string, unknown>): Promise<string> {
  const res = await world.app.call('POST', '/api/marketing/content', { token, body: { title: 'Research subject', ...body } });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

export function researchItem(
  world: ResearchWorld,
  token: string,
  contentId: string,
  options: { key?: string; body?: Record<string, unknown> } = {},
): Promise<CallResult> {
  return world.app.call('POST', `/api/marketing/content/${contentId}/research`, {
    token,
    body: options.body ?? {},
    headers: options.key ? { 'Idempotency-Key': options.key } : {},
  });
}

export function researchTopic(world: ResearchWorld, agentKey: string, body: Record<string, unknown>, key?: string): Promise<CallResult> {
  return world.app.call('POST', '/api/agent/marketing/content/research', {
    token: agentKey,
    body,
    headers: key ? { 'Idempotency-Key': key } : {},
  });
}

/** Activity types of a run in the order the workflow scheduled them, and the event ids of their steps. */
export async function activityEvents(
  workflowId: string,
): Promise<Array<{ type: string; event: 'scheduled' | 'completed' | 'failed'; id: number; activityId: string }>> {
  const history = await harness().client.workflow.getHandle(workflowId).fetchHistory();
  const types = new Map<number, { type: string; activityId: string }>();
  const out: Array<{ type: string; event: 'scheduled' | 'completed' | 'failed'; id: number; activityId: string }> = [];
  for (const e of history.events ?? []) {
    const id = Number(e.eventId);
    if (e.activityTaskScheduledEventAttributes) {
      const a = e.activityTaskScheduledEventAttributes;
      types.set(id, { type: a.activityType?.name ?? '', activityId: a.activityId ?? '' });
      out.push({ ...types.get(id)!, event: 'scheduled', id });
    }
    const done = e.activityTaskCompletedEventAttributes ?? e.activityTaskFailedEventAttributes;
    if (done)
      out.push({
        ...types.get(Number(done.scheduledEventId))!,
        event: e.activityTaskCompletedEventAttributes ? 'completed' : 'failed',
        id,
      });
    // A local activity leaves one marker when it is done: it counts as scheduled and finished at that event.
    const marker = e.markerRecordedEventAttributes;
    if (marker?.markerName === 'core_local_activity') {
      const data = marker.details?.data?.payloads?.[0]?.data;
      const { activity_type: type, activity_id: activityId } = JSON.parse(Buffer.from(data ?? []).toString('utf8'));
      out.push({ type, activityId, event: 'scheduled', id }, { type, activityId, event: marker.failure ? 'failed' : 'completed', id });
    }
  }
  return out;
}

export async function countRows(table: string, where: Record<string, unknown>): Promise<number> {
  const [{ count }] = await harness().db(table).where(where).count({ count: '*' });
  return Number(count);
}
