import { randomBytes, randomUUID } from 'node:crypto';
import { createAccount } from '../../src/auth/service';
import { createContent } from '../../src/marketing/content/service';
import { createImageClient } from '../../src/clients/providers/images';
import { startImageSimulator } from '../../src/sandbox/images';
import type { AppDeps } from '../../src/deps';
import { contentImagesContract, type ContentImagesInput, type ContentImagesResult } from '../../workflows/contentImages.contract';
import type { WorkflowOf } from '../../workflows/defineWorkflow';
import type { BenchEnv } from '../lib/env';
import type { ScenarioResult } from '../lib/report';
import { BENCH_HASH_KEY } from '../lib/servers';
import { summarize } from '../lib/stats';
import { startBenchWorker } from '../lib/worker';

const ROUNDS = 8;
const SECTIONS = 5;
const RENDER_MS = 500;

const timed = async (work: () => Promise<unknown>): Promise<number> => {
  const t0 = performance.now();
  await work();
  return performance.now() - t0;
};

function articleBody(): string {
  const words = 'installers measure the results and owners compare the running costs over every season of the year'.split(' ');
  const paragraph = `<p>${Array.from({ length: 60 }, (_, i) => words[i % words.length]).join(' ')}.</p>`;
  return Array.from({ length: SECTIONS }, (_, i) => `<h2>Part ${i + 1} of the heat pump guide</h2>${paragraph}`).join('\n');
}

/**
 * An image run over an article with five informative H2s and no featured image: a hero and five section images,
 * each render taking 500 ms on the image simulator, through the `contentImages` workflow on the product's worker
 * (its own process): plan, hero, then the sections five at a time; each image reserved, rendered, hosted in the media
 * store, registered, placed with a version row, and charged. The baseline is the run's critical path measured in the
 * same run against the same simulator: one hero render, then the five section renders side by side (the slowest
 * section ends it). Goal: a run takes at most 1.3× its critical path.
 */
export async function imageRun(env: BenchEnv): Promise<ScenarioResult> {
  const images = await startImageSimulator();
  images.delayMs = RENDER_MS;
  const imageEnv = {
    IMAGE_API_URL: images.url,
    IMAGE_API_KEY: images.apiKey,
    IMAGE_MODEL: 'gpt-image-1',
    IMAGE_RENDER_CONCURRENCY: String(SECTIONS),
  };
  const taskQueue = `bench-images-${randomBytes(4).toString('hex')}`;
  const worker = await startBenchWorker(env, taskQueue, imageEnv);
  const client = createImageClient({
    IMAGE_API_URL: images.url,
    IMAGE_API_KEY: images.apiKey,
    IMAGE_MODEL: 'gpt-image-1',
    IMAGE_TIMEOUT_MS: 30_000,
  })!;
  const tag = randomBytes(4).toString('hex');
  const { account } = await createAccount(env.db, BENCH_HASH_KEY, {
    name: 'Bench images',
    ownerEmail: `owner-${tag}@example.com`,
    ownerName: 'Bench',
  });
  const deps = { db: env.db } as AppDeps;

  const runThroughTemporal = async (): Promise<ContentImagesResult> => {
    const item = await createContent(
      deps,
      account.id,
      { title: `Heat pump guide ${randomBytes(3).toString('hex')}`, body: articleBody() },
      { type: 'system', id: null },
    );
    const input: ContentImagesInput = {
      accountId: account.id,
      contentId: item.id,
      publicBaseUrl: 'http://127.0.0.1:3000',
      replaceFeatured: false,
      maxSections: SECTIONS,
      requestId: randomUUID(),
    };
    return env.client.workflow.execute<WorkflowOf<typeof contentImagesContract>>(contentImagesContract.workflowType, {
      taskQueue,
      workflowId: `bench-images:${randomUUID()}`,
      args: [input],
    });
  };
  const criticalPath = async () => {
    const render = (i: number) => client.generate({ prompt: `Bench critical path image ${i}`, size: '1536x1024' });
    await render(0);
    await Promise.all(Array.from({ length: SECTIONS }, (_, i) => render(i + 1)));
  };
  try {
    await runThroughTemporal();
    await criticalPath();
    const ours: number[] = [];
    const baseline: number[] = [];
    const notes: string[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      baseline.push(await timed(criticalPath));
      let result: ContentImagesResult | undefined;
      ours.push(await timed(async () => (result = await runThroughTemporal())));
      notes.push(
        `round ${r + 1}: ${result!.assets.length} images (${result!.assets.filter((a) => a.placed).length} placed), ${result!.charged} charged, ${result!.warnings.length} warnings; the run ${ours[r].toFixed(0)} ms, critical path ${baseline[r].toFixed(0)} ms`,
      );
    }
    const sum = (xs: number[]) => xs.reduce((t, x) => t + x, 0);
    return {
      name: `image-run, a hero and ${SECTIONS} sections at ${RENDER_MS} ms a render (${ROUNDS} rounds; run time)`,
      ours: summarize(ours, sum(ours), 0),
      baseline: summarize(baseline, sum(baseline), 0),
      baselineLabel: 'critical path: hero, then the slowest of 5 concurrent section renders',
      compare: 'p99',
      goalRatio: 1.3,
      notes,
    };
  } finally {
    await worker.stop();
    await images.stop();
  }
}
