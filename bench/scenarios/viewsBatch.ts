import { randomBytes } from 'node:crypto';
import { Pool } from 'undici';
import { createAccount } from '../../src/auth/service';
import { insertProject } from '../../src/projects/store';
import { startAnalyticsSimulator } from '../../src/sandbox/analytics';
import type { BenchEnv } from '../lib/env';
import { pool, sampleLoad, type Samples } from '../lib/load';
import type { ScenarioResult } from '../lib/report';
import { BENCH_HASH_KEY, startServers } from '../lib/servers';

const PROJECTS = 5;
const PATHS_PER_PROJECT = 40;
const CONCURRENCY = 8;
const ROUNDS = 3;
const ROUND_MS = 4_000;
const LEDGER_ROWS_PER_PATH = 5;

async function round(baseUrl: string, path: string, token: string | undefined, body: string): Promise<Samples> {
  const client = new Pool(baseUrl, { connections: CONCURRENCY });
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  try {
    return await sampleLoad(
      async () => {
        const res = await client.request({ method: 'POST', path, headers, body });
        await res.body.text();
        if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
      },
      { concurrency: CONCURRENCY, durationMs: ROUND_MS, warmupOperations: 20 },
    );
  } finally {
    await client.close();
  }
}

/**
 * The views batch with 200 paths over 5 projects (each site with 30 days of traffic on every path, each path with
 * ledger leads), through our API (agent key: auth, validation, normalisation, ownership, one collector query per
 * project, one ledger statement for the batch) vs a bare handler making only the unavoidable reads — the 5
 * collector queries and that one ledger statement, side by side — both served by the same process against the same
 * collector simulator and database. Goal: ratio ≥ 0.7.
 */
export async function viewsBatch(env: BenchEnv): Promise<ScenarioResult> {
  const sim = await startAnalyticsSimulator();
  const tag = randomBytes(4).toString('hex');
  const { account, agentKey } = await createAccount(env.db, BENCH_HASH_KEY, {
    name: 'Bench views',
    ownerEmail: `views-${tag}@example.com`,
    ownerName: 'Bench',
  });
  const sites: Record<string, string> = {};
  const items: Array<{ project_id: string; path: string }> = [];
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  for (let p = 0; p < PROJECTS; p++) {
    const project = await insertProject(env.db, account.id, { name: `Site ${p}`, kind: 'service_hosted', host: `s${p}.bench.test` });
    const siteId = `s${p}-${tag}.bench.test`;
    await env.db('projects').where({ id: project.id }).update({ analytics_site_id: siteId });
    sites[project.id] = siteId;
    sim.addSite(siteId);
    for (let i = 0; i < PATHS_PER_PROJECT; i++) {
      const path = `/blog/post-${i}`;
      items.push({ project_id: project.id, path });
      sim.seed(
        siteId,
        path,
        Array.from({ length: 30 }, (_, d) => ({
          date: new Date(today - (d + 1) * 86_400_000).toISOString().slice(0, 10),
          pageviews: 20 + d,
          visitors: 10 + d,
          form_submits: d % 3,
        })),
      );
      await env.db('form_submissions').insert(
        Array.from({ length: LEDGER_ROWS_PER_PATH }, (_, k) => ({
          account_id: account.id,
          project_id: project.id,
          source: 'platform',
          idempotency_key: `bench-${tag}-${p}-${i}-${k}`,
          form_label: 'Contact',
          page_path: path,
          email: `lead-${p}-${i}-${k}@example.com`,
          submitted_at: new Date(today - (k + 2) * 86_400_000),
        })),
      );
    }
  }
  const servers = await startServers(env, 'views-batch', account.id, {
    ANALYTICS_API_URL: sim.url,
    ANALYTICS_API_KEY: sim.apiKey,
    BENCH_VIEWS_SITES: JSON.stringify(sites),
  });
  const body = JSON.stringify({ items });
  try {
    const ours: Samples[] = [];
    const baseline: Samples[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      baseline.push(await round(servers.urls.baseline, '/views', undefined, body));
      ours.push(await round(servers.urls.ours, '/api/agent/marketing/content/views', agentKey, body));
    }
    return {
      name: `views-batch, ${items.length} paths over ${PROJECTS} projects (${CONCURRENCY} connections, ${ROUNDS} alternating rounds of ${ROUND_MS / 1000} s per side)`,
      ours: pool(ours),
      baseline: pool(baseline),
      baselineLabel: `bare Koa, the ${PROJECTS} collector queries + the ledger statement`,
      goalRatio: 0.7,
    };
  } finally {
    servers.stop();
    await sim.stop();
  }
}
