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
import { BENCH_HASH_KEY, startServers } from '../lib/servers';
import { procCpuMs, readChildStats, statementsPer, TICK_MS } from '../lib/statementStats';
import { summarize } from '../lib/stats';
import { startBenchWorker } from '../lib/worker';

const CONCURRENCY = 16;
const ROUNDS = 3;
const ROUND_MS = 4_000;
const RATE_PER_SECOND = 10_000;
const TASK_QUEUE = 'bench-email-live';

/** The relay: an SMTP server in this process that takes every message and notes when each arrived, and which were signed, by Message-ID. */
async function smtpSink(): Promise<{ server: SMTPServer; port: number; arrived: Map<string, number>; signed: Set<string> }> {
  const arrived = new Map<string, number>();
  const signed = new Set<string>();
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
        if (id && /^DKIM-Signature:/im.test(head)) signed.add(id);
        callback(null, 'OK: queued');
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { server, port: (server.server.address() as AddressInfo).port, arrived, signed };
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
  headers: Record<string, string>;
}

/** One POST of the message (202 `queued`); notes when it was answered, by Message-ID, to time its arrival. */
async function send(side: Side, body: string, requested: Map<string, number> | null): Promise<void> {
  const t0 = performance.now();
  const res = await side.client.request({ method: 'POST', path: '/v1/email/send', headers: side.headers, body });
  const text = await res.body.text();
  if (res.statusCode !== 202) throw new Error(`status ${res.statusCode}: ${text}`);
  requested?.set((JSON.parse(text) as { messageId: string }).messageId, t0);
}

/** One configuration: an API process and the worker its jobs run on (signing, or the unsigned baseline). */
interface Pipeline {
  url: string;
  apiPid: number;
  workerPid: number;
  statsFile: string;
}

interface RoundFigures {
  samples: Samples;
  apiCpuMs: number;
  workerCpuMs: number;
  postgresMs: number;
  statements: Record<string, number>;
  /** Request → the relay received it, per message of the round. */
  endToEnd: number[];
  /** Messages of the round that arrived with a DKIM signature. */
  signedCopies: number;
}

/**
 * Warm-up sends, then a timed round; the round's figures include the follow-up until the worker is idle again, so
 * every timed message was delivered (and signed) within them.
 */
async function round(
  env: BenchEnv,
  pipeline: Pipeline,
  token: string,
  body: string,
  sink: { arrived: Map<string, number>; signed: Set<string> },
): Promise<RoundFigures> {
  const side = {
    client: new Pool(pipeline.url, { connections: CONCURRENCY }),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  };
  try {
    for (let i = 0; i < 100; i++) await send(side, body, null);
    await settled(pipeline.workerPid);
    await readChildStats(pipeline.apiPid, pipeline.statsFile);
    const pids = await postgresPids(env);
    const pgAt = new Map(pids.map((pid) => [pid, procCpuMs(pid)]));
    // A backend that exited during the round reads 0: only what each one still alive used counts.
    const pgMs = () => pids.reduce((t, pid) => t + Math.max(0, procCpuMs(pid) - pgAt.get(pid)!), 0);
    const before = { worker: procCpuMs(pipeline.workerPid) };
    const requested = new Map<string, number>();
    const samples = await sampleLoad(() => send(side, body, requested), { concurrency: CONCURRENCY, durationMs: ROUND_MS });
    const api = await readChildStats(pipeline.apiPid, pipeline.statsFile);
    await settled(pipeline.workerPid);
    const endToEnd: number[] = [];
    for (const [id, t0] of requested) {
      const at = sink.arrived.get(id);
      if (at === undefined) throw new Error('a message answered 202 never reached the relay');
      endToEnd.push(at - t0);
    }
    return {
      samples,
      apiCpuMs: api.cpuMs,
      workerCpuMs: procCpuMs(pipeline.workerPid) - before.worker,
      postgresMs: pgMs(),
      statements: api.statements,
      endToEnd,
      signedCopies: [...requested.keys()].filter((id) => sink.signed.has(id)).length,
    };
  } finally {
    await side.client.close();
  }
}

/** Waits until the process has used no CPU for a second (the worker has delivered everything and run every event workflow). */
async function settled(pid: number): Promise<void> {
  for (let last = procCpuMs(pid), waited = 0; waited < 120_000; waited += 1000) {
    await sleep(1000);
    const now = procCpuMs(pid);
    if (now - last <= 2 * TICK_MS) return;
    last = now;
  }
}

const ms = (n: number) => n.toFixed(2);

/**
 * A live-key send end to end, DKIM signing on. `POST /v1/email/send` accepts the message into the durable send queue
 * (stored `queued`, its `email-delivery` job started, 202); the product's worker composes it, signs it with the
 * domain's RSA-2048 key and hands it to the relay, an SMTP server in this process, then records `email.sent`, whose
 * webhook workflow it also runs. The baseline is the same pipeline with a worker that does not sign (a bench-only
 * switch, BENCH_UNSIGNED; the product always signs), in alternating rounds: our figure and the baseline's are
 * messages accepted per second; the notes give the API's and the worker's CPU per message, Postgres's, and the time
 * from the request to the relay's receipt.
 */
export async function emailLiveSend(env: BenchEnv): Promise<ScenarioResult> {
  const { accountId, domain, deps } = await benchEmailAccount(env, 'Bench live email', TASK_QUEUE);
  const live = (
    await createEmailKey(deps, accountId, {
      name: 'Bench live key',
      environment: 'live',
      scopes: ['email:send'],
      ratePerSecond: RATE_PER_SECOND,
    })
  ).token;
  await closeEmailRuntime(deps);

  const sink = await smtpSink();
  const smtpUrl = `smtp://127.0.0.1:${sink.port}`;
  const workerEnv = { SMTP_URL: smtpUrl, SECRET_HASH_KEY: BENCH_HASH_KEY };
  const signedWorker = await startBenchWorker(env, TASK_QUEUE, workerEnv);
  const unsignedWorker = await startBenchWorker(env, `${TASK_QUEUE}-unsigned`, { ...workerEnv, BENCH_UNSIGNED: '1' });
  const statsFile = (name: string) => path.join(os.tmpdir(), `bench-email-live-${name}-${process.pid}.json`);
  const apis = {
    signed: await startServers(env, 'email-send', accountId, {
      SMTP_URL: smtpUrl,
      TEMPORAL_TASK_QUEUE: TASK_QUEUE,
      BENCH_STATS_FILE: statsFile('signed'),
    }),
    unsigned: await startServers(env, 'email-send', accountId, {
      SMTP_URL: smtpUrl,
      TEMPORAL_TASK_QUEUE: `${TASK_QUEUE}-unsigned`,
      BENCH_STATS_FILE: statsFile('unsigned'),
    }),
  };
  const body = benchMessage(domain);
  try {
    const pipelines: Record<'signed' | 'unsigned', Pipeline> = {
      signed: { url: apis.signed.urls.ours, apiPid: apis.signed.pid, workerPid: signedWorker.pid, statsFile: statsFile('signed') },
      unsigned: {
        url: apis.unsigned.urls.ours,
        apiPid: apis.unsigned.pid,
        workerPid: unsignedWorker.pid,
        statsFile: statsFile('unsigned'),
      },
    };
    const rounds: Record<'signed' | 'unsigned', RoundFigures[]> = { signed: [], unsigned: [] };
    for (let r = 0; r < ROUNDS; r++) {
      rounds.unsigned.push(await round(env, pipelines.unsigned, live, body, sink));
      rounds.signed.push(await round(env, pipelines.signed, live, body, sink));
    }
    const figures = (side: RoundFigures[]) => {
      const sent = side.reduce((t, f) => t + f.samples.latenciesMs.length, 0);
      const sum = (pick: (f: RoundFigures) => number) => side.reduce((t, f) => t + pick(f), 0) / sent;
      const statements: Record<string, number> = {};
      for (const f of side) for (const [sql, n] of Object.entries(f.statements)) statements[sql] = (statements[sql] ?? 0) + n;
      return {
        sent,
        signedCopies: side.reduce((t, f) => t + f.signedCopies, 0),
        api: sum((f) => f.apiCpuMs),
        worker: sum((f) => f.workerCpuMs),
        pg: sum((f) => f.postgresMs),
        e2e: summarize(
          side.flatMap((f) => f.endToEnd),
          1,
          0,
        ),
        statements,
      };
    };
    const signed = figures(rounds.signed);
    const unsigned = figures(rounds.unsigned);
    const line = (label: string, f: ReturnType<typeof figures>) =>
      `${label} (${f.signedCopies} of ${f.sent} copies DKIM-signed): CPU ms per message — API ${ms(f.api)}, worker ${ms(f.worker)}, Postgres ${ms(f.pg)}; request → relay p50 ${ms(f.e2e.p50Ms)} ms, p95 ${ms(f.e2e.p95Ms)} ms (n=${f.e2e.count})`;
    return {
      name: `email-live-send, live-key sends accepted into the queue and delivered DKIM-signed (${CONCURRENCY} connections, ${ROUNDS} alternating rounds of ${ROUND_MS / 1000} s)`,
      ours: pool(rounds.signed.map((f) => f.samples)),
      baseline: pool(rounds.unsigned.map((f) => f.samples)),
      baselineLabel: 'the same pipeline, its worker not signing',
      notes: [
        line('signed', signed),
        line('unsigned', unsigned),
        `signing's share: API CPU per message ${((signed.api / unsigned.api - 1) * 100).toFixed(1)} %, worker CPU per message ${((signed.worker / unsigned.worker - 1) * 100).toFixed(1)} %, all CPU per message ${(((signed.api + signed.worker + signed.pg) / (unsigned.api + unsigned.worker + unsigned.pg) - 1) * 100).toFixed(1)} %`,
        ...statementsPer(signed.statements, signed.sent, 'message (API process)'),
      ],
    };
  } finally {
    apis.signed.stop();
    apis.unsigned.stop();
    await signedWorker.stop();
    await unsignedWorker.stop();
    await new Promise<void>((resolve) => sink.server.close(() => resolve()));
  }
}
