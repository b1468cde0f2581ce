import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { Pool } from 'undici';
import { closeEmailRuntime } from '../../src/email/keys/runtime';
import { createEmailKey } from '../../src/email/keys/service';
import { benchEmailAccount, benchMessage } from '../lib/emailAccount';
import type { BenchEnv } from '../lib/env';
import { pool, sampleLoad, type Samples } from '../lib/load';
import type { ScenarioResult } from '../lib/report';
import { startServers } from '../lib/servers';
import { childPid, procCpuMs, readChildStats, statementsPer, TICK_MS } from '../lib/statementStats';
import { summarize } from '../lib/stats';
import { startBenchWorker } from '../lib/worker';

const CONCURRENCY = 16;
const ROUNDS = 3;
const ROUND_MS = 4_000;
const RATE_PER_SECOND = 10_000;
const TEST_KEYS = 4;
const TASK_QUEUE = 'bench-email-live';

/** The relay: an SMTP server in this process that takes every message and notes when each arrived, by Message-ID. */
async function smtpSink(): Promise<{ server: SMTPServer; port: number; arrived: Map<string, number> }> {
  const arrived = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < 8192) head += chunk.toString('latin1');
      });
      stream.on('end', () => {
        const id = /^Message-ID:\s*(<[^>]+>)/im.exec(head)?.[1];
        if (id) arrived.set(id, performance.now());
        callback(null, 'OK: queued');
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { server, port: (server.server.address() as AddressInfo).port, arrived };
}

/** The Postgres backends connected to the bench database (pools keep theirs open through a round). */
async function postgresPids(env: BenchEnv): Promise<number[]> {
  const { rows } = await env.db.raw<{ rows: Array<{ pid: number }> }>(
    'select pid from pg_stat_activity where datname = current_database() union select pg_backend_pid()',
  );
  return rows.map((r) => r.pid);
}

interface Side {
  client: Pool;
  /** One per key, taken in turn. */
  headers: Array<Record<string, string>>;
  sent: number;
}

/** One POST of the message; with `arrived`, notes how long after the request the relay had it. */
async function send(side: Side, body: string, arrived: Map<string, number> | null, endToEnd: number[]): Promise<void> {
  const t0 = performance.now();
  const headers = side.headers[side.sent++ % side.headers.length];
  const res = await side.client.request({ method: 'POST', path: '/v1/email/send', headers, body });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}: ${text}`);
  if (!arrived) return;
  const at = arrived.get((JSON.parse(text) as { messageId: string }).messageId);
  if (at === undefined) throw new Error('answered 200 but the relay never received the message');
  endToEnd.push(at - t0);
}

/** Warm-up sends, then `measure` brackets the timed load (so counters see only the timed sends). */
async function round(
  baseUrl: string,
  tokens: string[],
  body: string,
  measured: { arrived: Map<string, number>; endToEnd: number[]; start(): Promise<void>; stop(): Promise<void> } | null,
): Promise<Samples> {
  const side = {
    client: new Pool(baseUrl, { connections: CONCURRENCY }),
    headers: tokens.map((token) => ({ 'content-type': 'application/json', authorization: `Bearer ${token}` })),
    sent: 0,
  };
  try {
    for (let i = 0; i < 200; i++) await send(side, body, null, []);
    await measured?.start();
    const samples = await sampleLoad(() => send(side, body, measured?.arrived ?? null, measured?.endToEnd ?? []), {
      concurrency: CONCURRENCY,
      durationMs: ROUND_MS,
    });
    await measured?.stop();
    return samples;
  } finally {
    await side.client.close();
  }
}

/** Waits until the process has used no CPU for a second (the worker has run every event workflow). */
async function settled(pid: number): Promise<void> {
  for (let last = procCpuMs(pid), waited = 0; waited < 60_000; waited += 1000) {
    await sleep(1000);
    const now = procCpuMs(pid);
    if (now - last <= 2 * TICK_MS) return;
    last = now;
  }
}

const ms = (n: number) => n.toFixed(2);

/**
 * What a live-key send costs with the relay in the loop. `POST /v1/email/send` with a live key
 * hands each message to SMTP_URL inside the request (pooled connections; the key's revocation is checked at the
 * commit point), stores it and records `email.sent`, whose delivery workflow (`email-event:<id>`) the product's worker
 * runs. The relay is an SMTP server in this process. Reported: messages accepted per second, the time from the
 * request to the relay's receipt, CPU ms per message of the API process, the worker, the Temporal dev server and
 * the bench database's Postgres backends, and the API's Postgres statements per message. The baseline is the same
 * route with a test key (nothing relayed or stored), alternating rounds in the same process.
 */
export async function emailLiveSend(env: BenchEnv): Promise<ScenarioResult> {
  const { accountId, domain, deps } = await benchEmailAccount(env, 'Bench live email', TASK_QUEUE);
  const key = (environment: 'live' | 'test') =>
    createEmailKey(deps, accountId, {
      name: `Bench ${environment} key`,
      environment,
      scopes: ['email:send'],
      ratePerSecond: RATE_PER_SECOND,
    });
  const live = (await key('live')).token;
  // Test-key rounds run near one key's per-second limit on one replica: spread over a few keys, as email-send does.
  const tests: string[] = [];
  for (let k = 0; k < TEST_KEYS; k++) tests.push((await key('test')).token);
  await closeEmailRuntime(deps);

  const sink = await smtpSink();
  const statsFile = path.join(os.tmpdir(), `bench-email-live-${process.pid}.json`);
  const worker = await startBenchWorker(env, TASK_QUEUE);
  const servers = await startServers(env, 'email-send', accountId, {
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
    TEMPORAL_TASK_QUEUE: TASK_QUEUE,
    BENCH_STATS_FILE: statsFile,
  });
  const body = benchMessage(domain);
  try {
    const apiPid = childPid('benchServers.ts');
    const workerPid = childPid('benchWorker.ts');
    const temporalPid = childPid('temporal');
    const endToEnd: number[] = [];
    const api = { cpuMs: 0, statements: {} as Record<string, number> };
    let postgresMs = 0;
    let pgAt: { pids: number[]; ms: number } = { pids: [], ms: 0 };
    const pgMs = (pids: number[]) => pids.reduce((t, pid) => t + procCpuMs(pid), 0);
    const measured = {
      arrived: sink.arrived,
      endToEnd,
      async start() {
        await readChildStats(apiPid, statsFile);
        const pids = await postgresPids(env);
        pgAt = { pids, ms: pgMs(pids) };
      },
      async stop() {
        const stats = await readChildStats(apiPid, statsFile);
        api.cpuMs += stats.cpuMs;
        for (const [sql, n] of Object.entries(stats.statements)) api.statements[sql] = (api.statements[sql] ?? 0) + n;
        postgresMs += pgMs(pgAt.pids) - pgAt.ms;
      },
    };
    const ours: Samples[] = [];
    const baseline: Samples[] = [];
    const followUp = { worker: procCpuMs(workerPid), temporal: procCpuMs(temporalPid) };
    for (let r = 0; r < ROUNDS; r++) {
      baseline.push(await round(servers.urls.ours, tests, body, null));
      ours.push(await round(servers.urls.ours, [live], body, measured));
    }
    await settled(workerPid);
    const relayed = sink.arrived.size;
    const workerMs = procCpuMs(workerPid) - followUp.worker;
    const temporalMs = procCpuMs(temporalPid) - followUp.temporal;
    const sent = ours.reduce((t, s) => t + s.latenciesMs.length, 0);
    const e2e = summarize(endToEnd, 1, 0);
    const per = (total: number) => ms(total / sent);
    return {
      name: `email-live-send, live-key sends with the relay in the loop (${CONCURRENCY} connections, ${ROUNDS} alternating rounds of ${ROUND_MS / 1000} s)`,
      ours: pool(ours),
      baseline: pool(baseline),
      baselineLabel: 'the same route with a test key',
      notes: [
        `request → the relay (an SMTP server in the load process) received the message: p50 ${ms(e2e.p50Ms)} ms, p95 ${ms(e2e.p95Ms)} ms, p99 ${ms(e2e.p99Ms)} ms (n=${e2e.count})`,
        `CPU ms per message (timed live rounds): API process ${per(api.cpuMs)}, Postgres backends of the bench database ${per(postgresMs)}`,
        `follow-up per relayed message (${relayed} relayed in all, warm-ups included; until the worker was idle): worker ${ms(workerMs / relayed)} CPU ms, Temporal dev server ${ms(temporalMs / relayed)} CPU ms`,
        ...statementsPer(api.statements, sent, 'message (API process)'),
      ],
    };
  } finally {
    servers.stop();
    await worker.stop();
    await new Promise<void>((resolve) => sink.server.close(() => resolve()));
  }
}
