import { randomBytes } from 'node:crypto';
import { Pool } from 'undici';
import { createAccount } from '../../src/auth/service';
import type { BenchEnv } from '../lib/env';
import { pool, sampleLoad, type Samples } from '../lib/load';
import type { ScenarioResult } from '../lib/report';
import { BENCH_HASH_KEY } from '../lib/servers';
import { startBenchSiteApi, type BenchSiteApi } from '../lib/siteApi';
import { startBenchSiteSimulator, type BenchSiteSimulator } from '../lib/siteSimulator';

const ITEMS = 25;
const CONCURRENCY = 16;
const ROUNDS = 3;
const ROUND_MS = 4_000;
const WARMUP = 100;

/** One registry read and the platform GET it makes; `valid` checks the platform's body (ours unwrapped from `result`). */
interface Read {
  action: string;
  params: Record<string, string>;
  platformPath: string;
  valid(body: any): boolean;
}

const reads = (sim: BenchSiteSimulator): Read[] => [
  {
    action: 'site_get',
    params: { site_id: sim.siteId },
    platformPath: `/sites/${sim.siteId}`,
    valid: (b) => b?.id === sim.siteId,
  },
  {
    action: 'cms_item_list',
    params: { site_id: sim.siteId, collection_id: sim.collectionId, limit: String(ITEMS) },
    platformPath: `/collections/${sim.collectionId}/items?limit=${ITEMS}`,
    valid: (b) => b?.items?.length === ITEMS,
  },
];

interface Side {
  baseUrl: string;
  token: string;
  path: string;
  unwrap(body: any): any;
  sent: number;
  fromSnapshot: number;
  /** CPU time of the API process during this side's rounds (idle during the direct side's). */
  apiCpuMs: number;
  /** The statements our API sent during this side's rounds. */
  statements: Record<string, number>;
}

const side = (baseUrl: string, token: string, path: string, unwrap: (b: any) => any = (b) => b): Side => ({
  baseUrl,
  token,
  path,
  unwrap,
  sent: 0,
  fromSnapshot: 0,
  apiCpuMs: 0,
  statements: {},
});

/** One round, then what the API process spent on it, booked to the side. */
async function measuredRound(api: BenchSiteApi, s: Side, read: Read): Promise<Samples> {
  const samples = await round(s, read);
  const { statements, cpuMs } = await api.sample();
  s.apiCpuMs += cpuMs;
  for (const [sql, n] of Object.entries(statements)) s.statements[sql] = (s.statements[sql] ?? 0) + n;
  return samples;
}

const cpuPerRequest = (s: Side) => (s.apiCpuMs / s.sent).toFixed(3);

/** One round on one side; an answer that is not 200 with the expected platform body counts as an error. */
async function round(s: Side, read: Read): Promise<Samples> {
  const client = new Pool(s.baseUrl, { connections: CONCURRENCY });
  const headers = { authorization: `Bearer ${s.token}`, accept: 'application/json' };
  try {
    return await sampleLoad(
      async () => {
        s.sent++;
        const res = await client.request({ method: 'GET', path: s.path, headers });
        const text = await res.body.text();
        const body = res.statusCode === 200 ? JSON.parse(text) : undefined;
        if (!read.valid(s.unwrap(body))) throw new Error(`status ${res.statusCode}: ${text.slice(0, 200)}`);
        if (body.snapshot?.cached) s.fromSnapshot++;
      },
      { concurrency: CONCURRENCY, durationMs: ROUND_MS, warmupOperations: WARMUP },
    );
  } finally {
    await client.close();
  }
}

/** Statements per request of ours, most frequent first, each shortened to its start. */
function perRequest(statements: Record<string, number>, requests: number): string[] {
  const total = Object.values(statements).reduce((t, n) => t + n, 0);
  return [
    `Postgres statements per request of ours: ${(total / requests).toFixed(2)}`,
    ...Object.entries(statements)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([sql, n]) => `  ${(n / requests).toFixed(2)} × ${sql.replace(/\s+/g, ' ').slice(0, 110)}`),
  ];
}

async function connectSiteToken(ourUrl: string, ownerToken: string, token: string): Promise<{ rate_limit_per_minute: number | null }> {
  const res = await fetch(`${ourUrl}/api/site-platform/site-token`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ownerToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  const body = (await res.json()) as any;
  if (res.status !== 201) throw new Error(`site token connect failed: ${res.status} ${JSON.stringify(body)}`);
  return body.connection;
}

/**
 * Site platform reads through our agent route — agent key, site ownership, credential resolution, gates, parameter
 * validation, the platform client's token bucket, the call — against the simulator in its own process, vs a bare Koa
 * relay that forwards the same GET (the cost of the extra HTTP hop alone: the yardstick, goal ≥ 0.7), and for
 * context vs the same GET straight to the simulator with a token. site_get always reaches the platform (the goal); cms_item_list is mostly answered
 * from the service's CMS snapshot cache (items, 60 s), reported for context. The simulator advertises a limit far
 * above the load, so no side is throttled. Alternating rounds, same concurrency on every side.
 */
export async function siteOp(env: BenchEnv): Promise<ScenarioResult[]> {
  const sim = await startBenchSiteSimulator(ITEMS);
  const tag = randomBytes(4).toString('hex');
  const { ownerToken, agentKey } = await createAccount(env.db, BENCH_HASH_KEY, {
    name: 'Bench site ops',
    ownerEmail: `owner-${tag}@example.com`,
    ownerName: 'Bench',
  });
  const api = await startBenchSiteApi(env, {
    SITE_PLATFORM_API_URL: sim.baseUrl,
    SITE_PLATFORM_AUTH_URL: sim.baseUrl,
    SITE_PLATFORM_TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    BENCH_RELAY_TOKEN: sim.baselineToken,
  });
  let served: number | undefined;
  try {
    const connection = await connectSiteToken(api.urls.ours, ownerToken, sim.ourToken);
    await api.sample(); // the connect's own
    const results: ScenarioResult[] = [];
    const sides: Side[] = [];
    for (const read of reads(sim)) {
      const query = new URLSearchParams({ action: read.action, ...read.params });
      const ours = side(api.urls.ours, agentKey, `/api/agent/web/site-platform-ops?${query}`, (b) => b?.result);
      const direct = side(sim.baseUrl, sim.baselineToken, `/v2${read.platformPath}`);
      const relay = side(api.urls.relay, 'unused', read.platformPath);
      sides.push(ours, direct, relay);
      const rounds = { ours: [] as Samples[], direct: [] as Samples[], relay: [] as Samples[] };
      for (let r = 0; r < ROUNDS; r++) {
        rounds.direct.push(await measuredRound(api, direct, read));
        rounds.relay.push(await measuredRound(api, relay, read));
        rounds.ours.push(await measuredRound(api, ours, read));
      }
      const name = `site-op, ${read.action} through the agent route (${CONCURRENCY} connections, ${ROUNDS} alternating rounds of ${ROUND_MS / 1000} s per side)`;
      const notes = [
        ...(ours.fromSnapshot
          ? [`${ours.fromSnapshot} of our ${ours.sent} answers came from the CMS snapshot cache, not the platform`]
          : []),
        ...perRequest(ours.statements, ours.sent),
        `API process CPU per request (user + system over whole rounds): ours ${cpuPerRequest(ours)} ms, bare relay ${cpuPerRequest(relay)} ms`,
      ];
      results.push(
        {
          name,
          ours: pool(rounds.ours),
          baseline: pool(rounds.relay),
          baselineLabel: 'bare Koa relay → simulator (the hop alone)',
          goalRatio: read.action === 'site_get' ? 0.7 : undefined,
          notes,
        },
        {
          name: `${name}, context`,
          ours: pool(rounds.ours),
          baseline: pool(rounds.direct),
          baselineLabel: 'the same GET straight to the simulator',
        },
      );
    }
    api.stop();
    served = await sim.stop();
    const expected = sides.reduce((t, s) => t + s.sent - s.fromSnapshot, 0);
    results[0].notes!.unshift(
      `connection rate_limit_per_minute ${connection.rate_limit_per_minute} (the simulator's advertised limit); the simulator served ${served} requests, ${expected} expected from the load (plus the connect's own calls)`,
    );
    return results;
  } finally {
    api.stop();
    if (served === undefined) await sim.stop();
  }
}
