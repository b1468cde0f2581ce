import { Pool } from 'undici';
import { createAccount } from '../../src/auth/service';
import type { BenchEnv } from '../lib/env';
import { pool, sampleLoad, type Samples } from '../lib/load';
import type { ScenarioResult } from '../lib/report';
import { BENCH_HASH_KEY, startServers } from '../lib/servers';
import { NOOP_PATH } from '../routes/noop';

const CONCURRENCY = 16;
const ROUNDS = 3;
const ROUND_MS = 5_000;

/** One round of authenticated GETs on one server; the pool of HTTP connections lives for the round. */
async function round(baseUrl: string, path: string, token: string): Promise<Samples> {
  const client = new Pool(baseUrl, { connections: CONCURRENCY });
  const headers = { authorization: `Bearer ${token}` };
  try {
    return await sampleLoad(
      async () => {
        const res = await client.request({ method: 'GET', path, headers });
        await res.body.text();
        if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
      },
      { concurrency: CONCURRENCY, durationMs: ROUND_MS, warmupOperations: 200 },
    );
  } finally {
    await client.close();
  }
}

/**
 * The route layer's floor: GET of a bench-only authenticated no-op route (a session token) mounted through the real
 * `route()` builder and `createApp` — auth, query validation, request id, logging, metrics, error handling — vs a
 * bare Koa handler in the same child process doing the same credential lookup (the same hashed-token SELECT, keyed
 * hash compared in constant time) and nothing else. Alternating rounds, baseline first.
 */
export async function routeFloor(env: BenchEnv): Promise<ScenarioResult> {
  const { account, ownerToken } = await createAccount(env.db, BENCH_HASH_KEY, {
    name: 'Bench route floor',
    ownerEmail: 'route-floor@example.com',
    ownerName: 'Bench',
  });
  const servers = await startServers(env, 'route-floor', account.id);
  try {
    const baselineRounds: Samples[] = [];
    const ourRounds: Samples[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      baselineRounds.push(await round(servers.urls.baseline, '/', ownerToken));
      ourRounds.push(await round(servers.urls.ours, NOOP_PATH, ownerToken));
    }
    return {
      name: `route-floor, an authenticated no-op GET with a session token (${CONCURRENCY} connections, ${ROUNDS} alternating rounds of ${ROUND_MS / 1000} s per side)`,
      ours: pool(ourRounds),
      baseline: pool(baselineRounds),
      baselineLabel: 'bare Koa, the same credential lookup',
      goalRatio: 0.8,
    };
  } finally {
    servers.stop();
  }
}
