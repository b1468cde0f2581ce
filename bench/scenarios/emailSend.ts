import os from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { closeEmailRuntime } from '../../src/email/keys/runtime';
import { createEmailKey } from '../../src/email/keys/service';
import { benchEmailAccount, benchMessage } from '../lib/emailAccount';
import type { BenchEnv } from '../lib/env';
import { pool, sampleLoad, type Samples } from '../lib/load';
import type { ScenarioResult } from '../lib/report';
import { startServers } from '../lib/servers';
import { childPid, readChildStats, statementsPer } from '../lib/statementStats';

const CONCURRENCY = 16;
const ROUNDS = 3;
const ROUND_MS = 4_000;
/** The most a key may allow. One replica here comes near it, so the load spreads over a few keys: the limiter checks every send but refuses none. */
const RATE_PER_SECOND = 10_000;
const KEYS = 4;
const WARMUP = 200;

/** Warm-up requests, then the timed load; `measure` brackets the timed part (so counters see only it). */
async function round(
  baseUrl: string,
  path: string,
  headers: Array<Record<string, string>>,
  body: string,
  measure?: { start(): Promise<void>; stop(): Promise<void> },
): Promise<Samples> {
  const client = new Pool(baseUrl, { connections: CONCURRENCY });
  const post = async (i: number) => {
    const res = await client.request({ method: 'POST', path, headers: headers[Math.abs(i) % headers.length], body });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}: ${text}`);
  };
  try {
    for (let i = 0; i < WARMUP; i++) await post(-1 - i);
    await measure?.start();
    const samples = await sampleLoad(post, { concurrency: CONCURRENCY, durationMs: ROUND_MS });
    await measure?.stop();
    return samples;
  } finally {
    await client.close();
  }
}

/**
 * POST /v1/email/send with a test key (bearer auth, scope, validation, the key's and the account's sender-domain
 * rules, the per-second limiter, usage, the simulated send's full response) vs a bare Koa handler that parses the
 * same JSON and answers an id (the goal), and — for context — vs a bare handler doing the same work a test-key send
 * must do (bench/baselines/emailSendFloor.ts), all in the same child process. Alternating rounds.
 */
export async function emailSend(env: BenchEnv): Promise<ScenarioResult[]> {
  const { accountId, domain, deps } = await benchEmailAccount(env, 'Bench email', 'bench-email');

  const tokens: string[] = [];
  for (let k = 0; k < KEYS; k++) {
    tokens.push(
      (
        await createEmailKey(deps, accountId, {
          name: `Bench test key ${k + 1}`,
          environment: 'test',
          scopes: ['email:send'],
          ratePerSecond: RATE_PER_SECOND,
        })
      ).token,
    );
  }
  await closeEmailRuntime(deps);

  const body = benchMessage(domain);
  const headers = tokens.map((token) => ({ 'content-type': 'application/json', authorization: `Bearer ${token}` }));
  const statsFile = path.join(os.tmpdir(), `bench-email-send-${process.pid}.json`);
  const servers = await startServers(env, 'email-send', accountId, { BENCH_STATS_FILE: statsFile });
  try {
    const pid = childPid('benchServers.ts');
    // The servers' process: statements and CPU time of each side's timed rounds.
    const counted = () => {
      const totals = { cpuMs: 0, statements: {} as Record<string, number> };
      return {
        totals,
        start: () => readChildStats(pid, statsFile).then(() => undefined),
        stop: async () => {
          const stats = await readChildStats(pid, statsFile);
          totals.cpuMs += stats.cpuMs;
          for (const [sql, n] of Object.entries(stats.statements)) totals.statements[sql] = (totals.statements[sql] ?? 0) + n;
        },
      };
    };
    const oursCost = counted();
    const baselineCost = counted();
    const floorCost = counted();
    const cpuFloorCost = counted();
    const ours: Samples[] = [];
    const baseline: Samples[] = [];
    const floor: Samples[] = [];
    const cpuFloor: Samples[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      baseline.push(await round(servers.urls.baseline, '/', [{ 'content-type': 'application/json' }], body, baselineCost));
      floor.push(await round(servers.urls.baseline, '/floor', headers, body, floorCost));
      cpuFloor.push(await round(servers.urls.baseline, '/floor-cpu', headers, body, cpuFloorCost));
      ours.push(await round(servers.urls.ours, '/v1/email/send', headers, body, oursCost));
    }
    const count = (side: Samples[]) => side.reduce((t, s) => t + s.latenciesMs.length, 0);
    const cpuPer = (cost: ReturnType<typeof counted>, side: Samples[]) => ((1000 * cost.totals.cpuMs) / count(side)).toFixed(0);
    const cpuNote = `CPU µs per request of the servers' process (timed rounds): ours ${cpuPer(oursCost, ours)}, bare ${cpuPer(baselineCost, baseline)}, same work ${cpuPer(floorCost, floor)}, same CPU work without the SELECT ${cpuPer(cpuFloorCost, cpuFloor)}`;
    const shape = `${CONCURRENCY} connections over ${KEYS} keys, ${ROUNDS} alternating rounds of ${ROUND_MS / 1000} s`;
    return [
      {
        name: `email-send, test-key sends (${shape})`,
        ours: pool(ours),
        baseline: pool(baseline),
        goalRatio: 0.5,
        baselineLabel: 'bare Koa: parse the JSON, answer an id',
        notes: [cpuNote, ...statementsPer(oursCost.totals.statements, count(ours), 'send of ours')],
      },
      {
        name: `email-send, the same vs a bare handler doing the same work (context) (${shape})`,
        ours: pool(ours),
        baseline: pool(floor),
        baselineLabel: 'bare Koa: key HMAC, schema, domain, 1 suppression SELECT, count, same answer',
      },
      {
        name: `email-send, the same vs that bare handler without its SELECT: the CPU work alone (context) (${shape})`,
        ours: pool(ours),
        baseline: pool(cpuFloor),
        baselineLabel: 'bare Koa: key HMAC, schema, domain, count, same answer',
        notes: [
          `that floor vs the bare JSON handler: ${(pool(cpuFloor).perSecond / pool(baseline).perSecond).toFixed(2)} (the most any handler doing this work reaches)`,
        ],
      },
    ];
  } finally {
    servers.stop();
  }
}
