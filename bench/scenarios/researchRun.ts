import { randomBytes, randomUUID } from 'node:crypto';
import { createAccount } from '../../src/auth/service';
import { loadConfig, type Config } from '../../src/config';
import { fetchReadablePage } from '../../src/clients/providers/pageFetch';
import { PageTextCache } from '../../src/research/pageTexts';
import { artifactStep, indexStep, knowledgeStep, pageStep, readSubject, searchStep, type StepDeps } from '../../src/research/steps';
import { startModelSimulator } from '../../src/sandbox/model';
import { articleHtml, startPageServer, type PageServer } from '../../src/sandbox/pages';
import { startSearchSimulator, type SearchSimulator } from '../../src/sandbox/search';
import type { WorkflowOf } from '../../workflows/defineWorkflow';
import { researchContract, type PageOutcome, type ResearchInput, type ResearchResult } from '../../workflows/research.contract';
import type { BenchEnv } from '../lib/env';
import type { ScenarioResult } from '../lib/report';
import { BENCH_HASH_KEY } from '../lib/servers';
import { summarize } from '../lib/stats';
import { startBenchWorker } from '../lib/worker';

const ROUNDS = 5;
const SOURCES = 8;
const SOURCE_DELAY_MS = 300;

interface Round {
  topic: string;
  urls: string[];
}

/** Eight fresh pages per round (so every round reads and indexes new URLs), each answering after 300 ms. */
function prepareRound(search: SearchSimulator, pages: PageServer, label: string): Round {
  const topic = `Heat pumps ${label} ${randomBytes(3).toString('hex')}`;
  const urls = Array.from({ length: SOURCES }, (_, i) => {
    const path = `/bench/${encodeURIComponent(topic)}/${i}`;
    pages.setPage(path, {
      html: articleHtml({ title: `${topic}, source ${i + 1}`, topic: 'heat pumps', paragraphs: 8 }),
      delayMs: SOURCE_DELAY_MS,
    });
    return pages.url(path);
  });
  search.setResults(
    topic,
    urls.map((url, i) => ({ title: `Source ${i + 1}`, url, description: `About ${topic}` })),
  );
  return { topic, urls };
}

const timed = async (work: () => Promise<unknown>): Promise<number> => {
  const t0 = performance.now();
  await work();
  return performance.now() - t0;
};

/** The workflow's steps called in this process, in the same order and with the same page concurrency, no Temporal. */
async function inProcessRun(deps: StepDeps, accountId: string, topic: string): Promise<void> {
  const texts = new PageTextCache();
  const subject = await readSubject(deps, { accountId, contentId: null, topic, keyword: null });
  await knowledgeStep(deps, { accountId, topic, keyword: null });
  const { serp } = await searchStep(deps, { accountId, query: topic }, 1);
  const results = (serp?.results ?? []).slice(0, SOURCES);
  const used: Array<Extract<PageOutcome, { status: 'read' }>> = [];
  let next = 0;
  // As the workflow does: each page's lane indexes it right after reading it when it gave claims.
  await Promise.all(
    Array.from({ length: Math.min(subject.fetchConcurrency, results.length) }, async () => {
      while (next < results.length) {
        const r = results[next++];
        const page = await pageStep(deps, texts, { accountId, url: r.url, serpTitle: r.title, topic, keyword: null });
        if (page.status !== 'read' || page.claims.length === 0) continue;
        await indexStep(deps, texts, {
          accountId,
          url: page.url,
          title: page.title,
          textHash: page.textHash,
          quotes: page.claims.map((c) => c.quote),
        });
        used.push(page);
      }
    }),
  );
  await artifactStep(deps, {
    accountId,
    contentId: null,
    topic,
    keyword: null,
    claims: used.flatMap((p) => p.claims),
    sources: [],
    serp,
    gaps: [],
    warnings: [],
    researchedAt: new Date().toISOString(),
  });
}

/**
 * A topic research run over 8 sources that each answer after 300 ms, through the `research` workflow on the
 * product's worker (its own process): knowledge bases, web search (simulator), 8 pages fetched concurrently with
 * claims from the model simulator, each page indexed, the artifact written. Compared with (1) the slowest single
 * source fetched alone — the goal, ratio ≥ 0.5, says a run takes at most twice its slowest source, which only holds
 * when the fetches really overlap — and (2) the same steps called in this process without Temporal (the
 * orchestration's overhead; context). Each round uses eight new pages, on every side.
 */
export async function researchRun(env: BenchEnv): Promise<ScenarioResult[]> {
  const [search, model, pages] = await Promise.all([startSearchSimulator(), startModelSimulator(), startPageServer()]);
  const providerEnv = {
    SEARCH_API_URL: search.url,
    SEARCH_API_KEY: search.apiKey,
    MODEL_API_URL: model.url,
    MODEL_API_KEY: model.apiKey,
    FETCH_ALLOW_PRIVATE_HOSTS: 'true',
    SEARCH_MONTHLY_CAP: '100000',
  };
  const config: Config = loadConfig({ ...process.env, LOG_LEVEL: 'warn', ...providerEnv });
  const taskQueue = `bench-research-${randomBytes(4).toString('hex')}`;
  const worker = await startBenchWorker(env, taskQueue, providerEnv);
  const tag = randomBytes(4).toString('hex');
  const { account } = await createAccount(env.db, BENCH_HASH_KEY, {
    name: 'Bench research',
    ownerEmail: `owner-${tag}@example.com`,
    ownerName: 'Bench',
  });
  const deps: StepDeps = { config, db: env.db };
  const runThroughTemporal = async (topic: string): Promise<ResearchResult> => {
    const input: ResearchInput = {
      accountId: account.id,
      contentId: null,
      topic,
      keyword: null,
      maxSources: SOURCES,
      requestId: randomUUID(),
    };
    return env.client.workflow.execute<WorkflowOf<typeof researchContract>>(researchContract.workflowType, {
      taskQueue,
      workflowId: `bench-research:${randomUUID()}`,
      args: [input],
    });
  };
  try {
    // Warm-up: the worker's first run loads its code paths; so does this process's.
    await runThroughTemporal(prepareRound(search, pages, 'warm-up').topic);
    await inProcessRun(deps, account.id, prepareRound(search, pages, 'warm-up in-process').topic);

    const ours: number[] = [];
    const slowest: number[] = [];
    const inProcess: number[] = [];
    const notes: string[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const single = prepareRound(search, pages, `single ${r}`);
      slowest.push(
        await timed(() =>
          fetchReadablePage(single.urls[0], { timeoutMs: 10_000, maxBytes: config.FETCH_MAX_BYTES, allowPrivateHosts: true }),
        ),
      );
      const round = prepareRound(search, pages, `round ${r}`);
      let result: ResearchResult | undefined;
      ours.push(
        await timed(async () => {
          result = await runThroughTemporal(round.topic);
        }),
      );
      inProcess.push(await timed(() => inProcessRun(deps, account.id, prepareRound(search, pages, `in-process ${r}`).topic)));
      const read = result!.sources.length;
      const indexed = result!.sources.filter((s) => s.indexed && !s.already_indexed).length;
      notes.push(
        `round ${r + 1}: ${read} of ${SOURCES} sources read, ${indexed} indexed, ${result!.claims.length} claims, ${result!.gaps.length} gaps, ${result!.warnings.length} warnings; the run ${ours[r].toFixed(0)} ms`,
      );
    }
    const sum = (xs: number[]) => xs.reduce((t, x) => t + x, 0);
    const summary = (xs: number[]) => summarize(xs, sum(xs), 0);
    const name = `research-run, a topic run over ${SOURCES} sources that each answer after ${SOURCE_DELAY_MS} ms (${ROUNDS} rounds; runs per second)`;
    return [
      {
        name: `${name} vs the slowest single source`,
        ours: summary(ours),
        baseline: summary(slowest),
        goalRatio: 0.5,
        baselineLabel: `one ${SOURCE_DELAY_MS} ms source fetched alone`,
        notes: [
          `ratio = slowest source ÷ whole run: ≥ 0.5 means a run takes at most 2× its slowest source (the fetches overlap; ${config.RESEARCH_FETCH_CONCURRENCY} at a time)`,
          ...notes,
        ],
      },
      {
        name: `${name} vs the same steps in-process`,
        ours: summary(ours),
        baseline: summary(inProcess),
        baselineLabel: 'the same steps, same concurrency, no Temporal',
        notes: [`Temporal's orchestration overhead per run: ${((sum(ours) - sum(inProcess)) / ROUNDS).toFixed(0)} ms (mean)`],
      },
    ];
  } finally {
    await worker.stop();
    await Promise.all([search.stop(), model.stop(), pages.stop()]);
  }
}
