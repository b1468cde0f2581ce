import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMetrics } from '../../src/http/metrics';
import { startJob } from '../../src/temporal/jobs';
import { defineWorkflow } from '../../workflows/defineWorkflow';
import type { CostFile, WindowCost } from '../lib/costProbe';
import type { BenchEnv } from '../lib/env';
import { runLoad } from '../lib/load';
import type { ScenarioResult } from '../lib/report';
import { actionsOf, addActions, historyOf, listExecutions, noActions, type Actions, type Execution } from '../lib/temporalActions';
import { aiTurn } from './aiTurn';
import { caseStudy } from './caseStudy';
import { commerceBackfill } from './commerceBackfill';
import { commerceWebhook } from './commerceWebhook';
import { contentList } from './contentList';
import { crmSearch } from './crmSearch';
import { emailSend } from './emailSend';
import { imageRun } from './imageRun';
import { researchRun } from './researchRun';
import { scheduleFire } from './scheduleFire';
import { siteOp } from './siteOp';
import { siteWebhook } from './siteWebhook';
import { viewsBatch } from './viewsBatch';

type Scenario = (env: BenchEnv) => Promise<ScenarioResult | ScenarioResult[]>;

/** The hot paths: run as their scenarios run them, with the servers' cost probe on (bench/lib/costProbe.ts). */
const HOT: Record<string, Scenario> = {
  'crm-search': crmSearch,
  'content-list': contentList,
  'email-send': emailSend,
  'commerce-webhook': commerceWebhook,
  'site-webhook': siteWebhook,
  'site-op': siteOp,
  'views-batch': viewsBatch,
};
/** The job kinds run by a scenario of their own; their workflows' histories give the Temporal actions. */
const JOBS: Record<string, Scenario> = {
  'research-run': researchRun,
  'image-run': imageRun,
  'case-study': caseStudy,
  'schedule-fire': scheduleFire,
  'commerce-backfill': commerceBackfill,
  'ai-turn': aiTurn,
};
/** Histories read per workflow type and step (the mean is over these). */
const SAMPLE = 40;
const JOB_STARTS = 400;

const f = (n: number, d = 2) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');

async function waitForFiles(dir: string, atLeast: number): Promise<CostFile[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const names = readdirSync(dir).filter((n) => n.startsWith('costs-'));
    if (names.length >= atLeast || Date.now() > deadline) {
      return names.map((n) => JSON.parse(readFileSync(path.join(dir, n), 'utf8')) as CostFile);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Runs a hot-path scenario with the probe on and prints CPU ms and statements per request of each request kind. */
async function hotPath(env: BenchEnv, name: string, scenario: Scenario): Promise<ScenarioResult[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-costs-'));
  process.env.BENCH_COSTS_OUT = dir;
  let results: ScenarioResult[];
  try {
    results = [await scenario(env)].flat();
  } finally {
    delete process.env.BENCH_COSTS_OUT;
  }
  const files = await waitForFiles(dir, 1);
  rmSync(dir, { recursive: true, force: true });
  const kinds = new Map<string, WindowCost>();
  for (const file of files) {
    for (const [kind, w] of Object.entries(file.windows)) {
      const into = kinds.get(kind) ?? { requests: 0, cpuMs: 0, statements: 0, wallMs: 0 };
      kinds.set(kind, {
        requests: into.requests + w.requests,
        cpuMs: into.cpuMs + w.cpuMs,
        statements: into.statements + w.statements,
        wallMs: into.wallMs + w.wallMs,
      });
    }
  }
  console.log(`\ncosts, ${name}: the API process's CPU and statements per request, over the windows when only that kind was in flight`);
  for (const [kind, w] of [...kinds.entries()].sort()) {
    const per =
      w.requests > 0
        ? `${f(w.cpuMs / w.requests, 3).padStart(8)} CPU ms/req  ${f(w.statements / w.requests, 2).padStart(6)} statements/req  (${w.requests} requests, ${f(w.wallMs / 1000, 1)} s, CPU ${f((w.cpuMs / w.wallMs) * 100, 0)} %)`
        : `${f(w.cpuMs, 0)} CPU ms, ${w.statements} statements over ${f(w.wallMs / 1000, 1)} s`;
    console.log(`  ${kind.padEnd(62)} ${per}`);
  }
  return results;
}

/** Starting a job through the job helper, in this process: CPU per start (no database statement: the helper has none). */
async function jobStartCost(env: BenchEnv): Promise<void> {
  const temporal = { client: env.client, namespace: env.temporal.namespace, taskQueue: `bench-${randomUUID()}` };
  const metrics = createMetrics(false);
  const benchNoop = defineWorkflow<[], never>('benchNoop', 'bench');
  const accountId = randomUUID();
  const start = async () => {
    await startJob(temporal, metrics, benchNoop, {
      accountId,
      args: [],
      requestId: randomUUID(),
      searchAttributes: { ContentId: accountId },
    });
  };
  await runLoad(start, { concurrency: 8, maxOperations: 50 });
  const cpu = process.cpuUsage();
  const summary = await runLoad(start, { concurrency: 8, maxOperations: JOB_STARTS });
  const used = process.cpuUsage(cpu);
  // The visibility store lists runs a moment after their start: let these be listed before any step's snapshot.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  console.log(
    `\ncosts, job-start: ${f((used.user + used.system) / 1000 / summary.count, 3)} CPU ms per start in the calling process (${summary.count} starts, ${f(summary.perSecond, 0)}/s, errors ${summary.errors}), 0 statements, 1 Temporal action (the start)`,
  );
}

/** Temporal actions of every run that appeared during `step`, per workflow type (up to SAMPLE histories each). */
async function jobActions(env: BenchEnv, step: string, before: Set<string>): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const runs = (await listExecutions(env.client)).filter((e) => !before.has(e.runId) && e.type !== 'benchNoop');
  const byType = new Map<string, Execution[]>();
  for (const run of runs) byType.set(run.type, [...(byType.get(run.type) ?? []), run]);
  console.log(`\ncosts, ${step}: Temporal actions per run, from the histories (runs that appeared during the step)`);
  for (const [type, list] of [...byType.entries()].sort()) {
    const sample = list.slice(0, SAMPLE);
    const each: Actions[] = [];
    for (const run of sample) each.push(actionsOf(await historyOf(env.client, run.workflowId, run.runId)));
    const sum = each.reduce((t, a) => addActions(t, a), noActions());
    const totals = each.map((a) => a.total);
    const mean = (k: keyof Actions) => f(sum[k] / each.length, 1);
    const open = sample.filter((r) => !r.closed).length;
    console.log(
      `  ${type.padEnd(30)} ${mean('total').padStart(7)} actions/run (min ${Math.min(...totals)}, max ${Math.max(...totals)}; ${list.length} runs, ${sample.length} read, ${open} still open)  start ${mean('start')} signals ${mean('signals')} activities ${mean('activities')} retries ${mean('activityRetries')} local-activity tasks ${mean('localActivityTasks')} timers ${mean('timers')} child ${mean('childStarts')} upserts ${mean('upserts')} updates ${mean('updates')}`,
    );
  }
}

/**
 * Cost per operation (bench-only, no goal): each hot path's scenario with the servers' cost probe on (API CPU ms and
 * Postgres statements per request), the job helper's start, and the Temporal actions (what Temporal Cloud bills) of
 * every workflow run each step started, read from the histories. BENCH_COSTS_ONLY=<name,…> runs a subset (hot paths,
 * job kinds, `job-start`), so the whole set fits the bench's time limit in a few invocations.
 */
export async function costs(env: BenchEnv): Promise<ScenarioResult[]> {
  const only = process.env.BENCH_COSTS_ONLY?.split(',').map((s) => s.trim());
  const wanted = (name: string) => !only || only.includes(name);
  const results: ScenarioResult[] = [];
  if (wanted('job-start')) await jobStartCost(env);
  for (const [name, scenario] of Object.entries({ ...HOT, ...JOBS })) {
    if (!wanted(name)) continue;
    const before = new Set((await listExecutions(env.client)).map((e) => e.runId));
    if (name in HOT) results.push(...(await hotPath(env, name, scenario)));
    else results.push(...[await scenario(env)].flat());
    await jobActions(env, name, before);
  }
  return results;
}
