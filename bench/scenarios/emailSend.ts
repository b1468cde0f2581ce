import { randomBytes } from 'node:crypto';
import { Pool } from 'undici';
import { createAccount } from '../../src/auth/service';
import { loadConfig } from '../../src/config';
import type { AppDeps } from '../../src/deps';
import { closeEmailRuntime } from '../../src/email/keys/runtime';
import { createEmailKey } from '../../src/email/keys/service';
import { createMetrics } from '../../src/http/metrics';
import { createLogger } from '../../src/logger';
import type { BenchEnv } from '../lib/env';
import { pool, sampleLoad, type Samples } from '../lib/load';
import type { ScenarioResult } from '../lib/report';
import { BENCH_HASH_KEY, startServers } from '../lib/servers';

const CONCURRENCY = 16;
const ROUNDS = 3;
const ROUND_MS = 4_000;
/** The most a key may allow. One replica here comes near it, so the load spreads over a few keys: the limiter checks every send but refuses none. */
const RATE_PER_SECOND = 10_000;
const KEYS = 4;

async function round(baseUrl: string, path: string, headers: Array<Record<string, string>>, body: string): Promise<Samples> {
  const client = new Pool(baseUrl, { connections: CONCURRENCY });
  try {
    return await sampleLoad(
      async (i) => {
        const res = await client.request({ method: 'POST', path, headers: headers[Math.abs(i) % headers.length], body });
        const text = await res.body.text();
        if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}: ${text}`);
      },
      { concurrency: CONCURRENCY, durationMs: ROUND_MS, warmupOperations: 200 },
    );
  } finally {
    await client.close();
  }
}

/**
 * POST /v1/email/send with a test key (bearer auth, scope, validation, the key's and the account's sender-domain
 * rules, the per-second limiter, usage, the simulated send's full response) vs a bare Koa handler that parses the
 * same JSON and answers an id, in the same child process. Alternating rounds.
 */
export async function emailSend(env: BenchEnv): Promise<ScenarioResult> {
  const tag = randomBytes(4).toString('hex');
  const { account } = await createAccount(env.db, BENCH_HASH_KEY, {
    name: 'Bench email',
    ownerEmail: `owner-${tag}@example.com`,
    ownerName: 'Bench',
  });
  const domain = `bench-${tag}.example.com`;
  await env.db('email_domains').insert({
    account_id: account.id,
    name: domain,
    status: 'verified',
    verification_token: randomBytes(24).toString('hex'),
    verified_at: new Date(),
  });
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn', SECRET_HASH_KEY: BENCH_HASH_KEY });
  const deps: AppDeps = {
    config,
    db: env.db,
    logger: createLogger('warn'),
    metrics: createMetrics(false),
    schedules: [],
    secretHashKey: BENCH_HASH_KEY,
    temporal: { client: env.client, namespace: env.temporal.namespace, taskQueue: 'bench-email' },
  };
  const tokens: string[] = [];
  for (let k = 0; k < KEYS; k++) {
    tokens.push(
      (
        await createEmailKey(deps, account.id, {
          name: `Bench test key ${k + 1}`,
          environment: 'test',
          scopes: ['email:send'],
          ratePerSecond: RATE_PER_SECOND,
        })
      ).token,
    );
  }
  await closeEmailRuntime(deps);

  const body = JSON.stringify({
    from: `Bench <news@${domain}>`,
    to: ['reader@example.com'],
    subject: 'Your weekly digest',
    html: '<p>Hello from the bench.</p>',
    text: 'Hello from the bench.',
    tags: [{ name: 'campaign', value: 'bench' }],
  });
  const headers = tokens.map((token) => ({ 'content-type': 'application/json', authorization: `Bearer ${token}` }));
  const servers = await startServers(env, 'email-send', account.id);
  try {
    const ours: Samples[] = [];
    const baseline: Samples[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      baseline.push(await round(servers.urls.baseline, '/', [{ 'content-type': 'application/json' }], body));
      ours.push(await round(servers.urls.ours, '/v1/email/send', headers, body));
    }
    return {
      name: `email-send, test-key sends (${CONCURRENCY} connections over ${KEYS} keys, ${ROUNDS} alternating rounds of ${ROUND_MS / 1000} s)`,
      ours: pool(ours),
      baseline: pool(baseline),
      goalRatio: 0.5,
      baselineLabel: 'bare Koa: parse the JSON, answer an id',
    };
  } finally {
    servers.stop();
  }
}
