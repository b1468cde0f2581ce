import { randomBytes } from 'node:crypto';
import { SITE_PLATFORM_TRIGGERS } from '../../src/triggers/outbox';
import { entityJobId } from '../../src/temporal/jobIds';
import { sitePlatformEventsContract } from '../../workflows/sitePlatformEvents.contract';
import type { BenchEnv } from '../lib/env';
import { sampleLoad, type Samples } from '../lib/load';
import type { ScenarioResult } from '../lib/report';
import { startServers, type BenchServers } from '../lib/servers';
import {
  drainSites,
  intakeClient,
  itemChangedBody,
  seedSiteIntake,
  TRIGGER,
  type Answer,
  type IntakeClient,
  type SiteIntakeSeed,
} from '../lib/siteIntake';
import { summarize, type Summary } from '../lib/stats';
import { addDrainChainFacts, drainChainFacts, noDrainChainFacts, type DrainChainFacts } from '../lib/temporalActions';
import { startBenchWorker, type BenchWorker } from '../lib/worker';

const ROUNDS = 2;
const DELIVERIES = 4_000;
/** Every DUP_EVERY-th delivery is also sent, at the same moment, to the other replica (byte-identical: a duplicate). */
const DUP_EVERY = 10;
/** Requests in flight in all, whatever the replica count: the same offered load for both setups. */
const CONCURRENCY = 16;
/** Sites per round: one fan-out workflow each, so two workers have workflows to share. */
const SITES = 8;

type Setup = '1x1' | '2x2';

interface Replica {
  servers: BenchServers;
  client: IntakeClient;
}

interface RoundResult {
  intake: Samples;
  endToEndMs: number;
  accepted: number;
  answersNew: number;
  duplicatesSent: number;
  /** Events two replicas both answered as new: a cross-replica duplicate let through. */
  doubleNew: number;
  recorded: number;
  fannedOut: number;
  latency: { p50Ms: number; p95Ms: number; p99Ms: number };
  histories: DrainChainFacts;
  triggers: { triggers: number; duplicated: number };
}

/** What the round's sites' fan-out workflow chains say, summed: who handed over how many events, who fanned out how many. */
async function historyFacts(env: BenchEnv, seed: SiteIntakeSeed, siteIds: string[]): Promise<DrainChainFacts> {
  const facts = noDrainChainFacts();
  for (const siteId of siteIds) {
    addDrainChainFacts(
      facts,
      await drainChainFacts(env.client, entityJobId(sitePlatformEventsContract.jobKind, seed.accountId, siteId), 'drainSitePlatformEvents'),
    );
  }
  return facts;
}

/**
 * The workflow triggers of the round's events (one per fanned-out event, keyed by the event), and the events with
 * more than one.
 */
async function triggerCounts(env: BenchEnv, seed: SiteIntakeSeed, siteIds: string[]): Promise<{ triggers: number; duplicated: number }> {
  const { rows } = await env.db.raw(
    `select coalesce(sum(n), 0)::int as triggers, count(*) filter (where n > 1)::int as duplicated
       from (select count(t.id) as n
               from site_platform_inbound_events e
               left join workflow_trigger_outbox t
                 on t.account_id = e.account_id and t.trigger = ? and t.dedup_key = 'site:' || e.site_id || ':' || e.event_id
              where e.account_id = ? and e.site_id = any(?) and e.verified
              group by e.seq) per_event`,
    [SITE_PLATFORM_TRIGGERS[TRIGGER], seed.accountId, siteIds],
  );
  return rows[0];
}

/** One round of one setup: DELIVERIES distinct events over this round's sites, round-robin over the replicas. */
async function round(env: BenchEnv, seed: SiteIntakeSeed, replicas: Replica[], siteIds: string[], tag: string): Promise<RoundResult> {
  const bodies = Array.from({ length: DELIVERIES }, (_, i) => itemChangedBody(siteIds[i % siteIds.length], `${tag}_${i}`));
  const answers: Answer[][] = bodies.map(() => []);
  let duplicatesSent = 0;
  const started = performance.now();
  const intake = await sampleLoad(
    async (i) => {
      const primary = replicas[i % replicas.length];
      const other = replicas[(i + 1) % replicas.length];
      const sends = [primary.client.send(bodies[i])];
      if (i % DUP_EVERY === 0) {
        duplicatesSent++;
        sends.push(other.client.send(bodies[i]));
      }
      answers[i] = await Promise.all(sends);
    },
    { concurrency: CONCURRENCY, maxOperations: DELIVERIES },
  );
  const drained = await drainSites(env, seed.accountId, siteIds);
  const endToEndMs = performance.now() - started;
  return {
    intake,
    endToEndMs,
    accepted: answers.filter((a) => a.length > 0).length,
    answersNew: answers.filter((a) => a.includes('new')).length,
    duplicatesSent,
    doubleNew: answers.filter((a) => a.filter((x) => x === 'new').length > 1).length,
    recorded: drained.recorded,
    fannedOut: drained.fannedOut,
    latency: drained,
    histories: await historyFacts(env, seed, siteIds),
    triggers: await triggerCounts(env, seed, siteIds),
  };
}

function endToEnd(rounds: RoundResult[]): Summary {
  const pooled = summarize(
    [],
    rounds.reduce((t, r) => t + r.endToEndMs, 0),
    0,
  );
  const n = rounds.reduce((t, r) => t + r.accepted, 0);
  const pick = (f: (r: RoundResult) => number) => Math.max(...rounds.map(f));
  return {
    ...pooled,
    count: n,
    perSecond: (n / rounds.reduce((t, r) => t + r.endToEndMs, 0)) * 1000,
    // Worst round's percentiles (rounds are not pooled row by row).
    p50Ms: pick((r) => r.latency.p50Ms),
    p95Ms: pick((r) => r.latency.p95Ms),
    p99Ms: pick((r) => r.latency.p99Ms),
    errors: rounds.reduce((t, r) => t + r.intake.errors, 0),
  };
}

const intakeSummary = (rounds: RoundResult[]): Summary =>
  summarize(
    rounds.flatMap((r) => r.intake.latenciesMs),
    rounds.reduce((t, r) => t + r.intake.elapsedMs, 0),
    rounds.reduce((t, r) => t + r.intake.errors, 0),
  );

/** Counts per process, summed by its role (replica B and worker B are fresh processes each round). */
function share(m: Map<string, number>, names: Map<string, string>): string {
  const byRole = new Map<string, number>();
  m.forEach((n, who) => byRole.set(names.get(who) ?? who, (byRole.get(names.get(who) ?? who) ?? 0) + n));
  return [...byRole.entries()].map(([role, n]) => `${role} ${n}`).join(', ');
}

function correctness(setup: Setup, rounds: RoundResult[], names: Map<string, string>): string[] {
  const sum = (f: (r: RoundResult) => number) => rounds.reduce((t, r) => t + f(r), 0);
  const accepted = sum((r) => r.accepted);
  const recorded = sum((r) => r.recorded);
  const fanned = sum((r) => r.fannedOut);
  // Accepted but never recorded, or recorded (verified) but never fanned out (no `fanned_out_at`).
  const lost = Math.max(0, accepted - recorded) + (recorded - fanned);
  // Let through twice at intake (two answers `new`, or more rows than new answers), fanned out twice (the completed
  // passes handled more events than rows were stamped: the stamp is written once), or an event with two triggers.
  const fannedTwice = sum((r) => Math.max(0, r.histories.handled - r.fannedOut));
  const duplicated =
    sum((r) => r.doubleNew) + sum((r) => Math.max(0, r.recorded - r.answersNew)) + fannedTwice + sum((r) => r.triggers.duplicated);
  const chains = rounds.reduce((all, r) => addDrainChainFacts(all, r.histories), noDrainChainFacts());
  const actions = chains.actions;
  return [
    `${setup}: lost=${lost} duplicated=${duplicated} (accepted ${accepted} distinct deliveries + ${sum((r) => r.duplicatesSent)} duplicates sent ${setup === '2x2' ? 'to the other replica' : 'again'} at the same moment; event rows ${recorded}, fanned out ${fanned}, workflow triggers ${sum((r) => r.triggers.triggers)} (events with two: ${sum((r) => r.triggers.duplicated)}); answered new twice ${sum((r) => r.doubleNew)}; fan-out passes ${chains.passes} handled ${chains.handled} events (beyond one per event: ${fannedTwice}))`,
    `${setup}: hand-over signals ${chains.signals} saying ${chains.handedOver} events handed over (again: ${chains.againSignals} signals), in ${chains.runs} workflow runs over ${rounds.length * SITES} sites`,
    `${setup}: events handed over by ${share(chains.byRelay, names)}; fanned out by ${share(chains.byWorker, names)}`,
    `${setup}: Temporal actions ${actions.total} = ${(actions.total / accepted).toFixed(3)} per delivery (starts ${actions.start}, signals ${actions.signals}, activities ${actions.activities}, retries ${actions.activityRetries}, local-activity tasks ${actions.localActivityTasks}, timers ${actions.timers})`,
  ];
}

/**
 * The site-platform webhook intake on one machine with TWO API replicas (two bench server processes, each with its
 * receiver and its relay: `for update skip locked` relays share the outbox through Postgres) and TWO product workers
 * (two processes on one task queue), against one replica and one worker, alternating rounds of the same offered load
 * (16 requests in flight in all; deliveries round-robin over the replicas). Every tenth delivery is sent at the same
 * moment to the other replica too: the durable dedup must answer one of the pair `replay`. After each round every
 * accepted delivery must be recorded once and fanned out once: read from the event rows (`fanned_out_at`, stamped
 * once by the store), their workflow triggers (one per event) and the fan-out workflows' chains of runs (the
 * hand-over signals' `count` and who sent them, the passes' results — events handled — and which worker ran them).
 */
export async function scale(env: BenchEnv): Promise<ScenarioResult[]> {
  const seed = await seedSiteIntake(env, 1 + ROUNDS * (2 * SITES + 2));
  const taskQueue = `bench-scale-${randomBytes(4).toString('hex')}`;
  const serverEnv = {
    TEMPORAL_TASK_QUEUE: taskQueue,
    SITE_PLATFORM_CLIENT_ID: 'bench-client',
    SITE_PLATFORM_CLIENT_SECRET: seed.secret,
    BENCH_SITE_ID: seed.siteIds[0],
  };
  const startReplica = async (): Promise<Replica> => {
    const servers = await startServers(env, 'site-webhook', seed.accountId, serverEnv);
    return { servers, client: intakeClient(servers.urls.ours, seed, CONCURRENCY) };
  };
  const stopReplica = async (r: Replica) => {
    await r.client.close();
    r.servers.stop();
  };
  const replicaA = await startReplica();
  const workerA = await startBenchWorker(env, taskQueue);
  let replicaB: Replica | undefined;
  let workerB: BenchWorker | undefined;
  const results: Record<Setup, RoundResult[]> = { '1x1': [], '2x2': [] };
  const names = new Map<string, string>();
  const nameNew = (r: RoundResult, label: string) => {
    for (const who of [...r.histories.byRelay.keys()]) if (!names.has(who)) names.set(who, `${label}`);
  };
  try {
    // Warm-up: both setups' code paths and the workflow bundle, not measured.
    await round(env, seed, [replicaA], seed.siteIds.slice(0, 1), 'warm').then((r) => nameNew(r, 'replica A'));
    let next = 1;
    for (let r = 0; r < ROUNDS; r++) {
      for (const setup of ['1x1', '2x2'] as Setup[]) {
        if (setup === '2x2') {
          replicaB = await startReplica();
          workerB = await startBenchWorker(env, taskQueue);
          // The fresh processes warm up (JIT, pools, caches, first workflow tasks) on sites of their own, not measured.
          const warm = await round(env, seed, [replicaA, replicaB], seed.siteIds.slice(next, next + 2), `warm${r}`);
          nameNew(warm, 'replica B');
          next += 2;
        }
        const sites = seed.siteIds.slice(next, next + SITES);
        next += SITES;
        const replicas = setup === '2x2' ? [replicaA, replicaB!] : [replicaA];
        const result = await round(env, seed, replicas, sites, `${setup}r${r}`);
        results[setup].push(result);
        nameNew(result, setup === '2x2' ? 'replica B' : 'replica A');
        if (setup === '2x2') {
          await stopReplica(replicaB!);
          await workerB!.stop();
          replicaB = undefined;
          workerB = undefined;
        }
      }
    }
    // Worker identities: the one that ran 1x1 rounds is A.
    const workerAIds = new Set(results['1x1'].flatMap((r) => [...r.histories.byWorker.keys()]));
    for (const who of workerAIds) names.set(who, 'worker A');
    for (const r of results['2x2']) {
      for (const who of r.histories.byWorker.keys()) if (!names.has(who)) names.set(who, workerAIds.has(who) ? 'worker A' : 'worker B');
    }
    const size = `${ROUNDS} alternating rounds of ${DELIVERIES.toLocaleString('en')} distinct deliveries over ${SITES} sites, ${CONCURRENCY} requests in flight in all`;
    const checks = [...correctness('1x1', results['1x1'], names), ...correctness('2x2', results['2x2'], names)];
    return [
      {
        name: `scale, site-platform webhook intake answered (HTTP), 2 API replicas + 2 workers on one 2-core machine (${size})`,
        ours: intakeSummary(results['2x2']),
        baseline: intakeSummary(results['1x1']),
        baselineLabel: '1 API replica + 1 worker',
        notes: ['the workers fan out during the rounds, on the same cores'],
      },
      {
        name: `scale, the same deliveries end to end (first send → last event fanned out; p50/p95 = received → fanned out, worst round)`,
        ours: endToEnd(results['2x2']),
        baseline: endToEnd(results['1x1']),
        baselineLabel: '1 API replica + 1 worker',
        notes: checks,
      },
    ];
  } finally {
    if (replicaB) await stopReplica(replicaB);
    await workerB?.stop();
    await stopReplica(replicaA);
    await workerA.stop();
  }
}
