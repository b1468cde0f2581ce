import { randomBytes } from 'node:crypto';
import { sitePlatformEventsWorkflowId } from '../../workflows/sitePlatformEvents.contract';
import type { BenchEnv } from '../lib/env';
import { sampleLoad, type Samples } from '../lib/load';
import type { ScenarioResult } from '../lib/report';
import { startServers, type BenchServers } from '../lib/servers';
import {
  drainSites,
  intakeClient,
  itemChangedBody,
  seedSiteIntake,
  type Answer,
  type IntakeClient,
  type SiteIntakeSeed,
} from '../lib/siteIntake';
import { summarize, type Summary } from '../lib/stats';
import { actionsOf, addActions, decodePayloads, historyOf, noActions, type Actions } from '../lib/temporalActions';
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
  histories: HistoryFacts;
}

interface HistoryFacts {
  signalledSeqs: number;
  distinctSignalled: number;
  seqsInActivities: number;
  distinctInActivities: number;
  /** Events signalled per client identity (pid@host of the API replica whose relay sent the signal). */
  byRelay: Map<string, number>;
  /** Events fanned out per worker identity (activity attempts that completed). */
  byWorker: Map<string, number>;
  actions: Actions;
}

/** What the fan-out workflows' histories say: who relayed which event, who fanned it out, and how often. */
async function historyFacts(env: BenchEnv, seed: SiteIntakeSeed, siteIds: string[]): Promise<HistoryFacts> {
  const facts: HistoryFacts = {
    signalledSeqs: 0,
    distinctSignalled: 0,
    seqsInActivities: 0,
    distinctInActivities: 0,
    byRelay: new Map(),
    byWorker: new Map(),
    actions: noActions(),
  };
  const signalled = new Set<number>();
  const inActivities = new Set<number>();
  for (const siteId of siteIds) {
    const events = await historyOf(env.client, sitePlatformEventsWorkflowId(seed.accountId, siteId));
    addActions(facts.actions, actionsOf(events));
    const scheduled = new Map<number, number[]>();
    for (const e of events) {
      const signal = e.workflowExecutionSignaledEventAttributes;
      if (signal) {
        const [{ seqs }] = decodePayloads(signal.input) as [{ seqs: number[] }];
        facts.signalledSeqs += seqs.length;
        seqs.forEach((s) => signalled.add(s));
        const who = signal.identity ?? '?';
        facts.byRelay.set(who, (facts.byRelay.get(who) ?? 0) + seqs.length);
      }
      const activity = e.activityTaskScheduledEventAttributes;
      if (activity && activity.activityType?.name === 'fanOutSitePlatformEvents') {
        const [{ seqs }] = decodePayloads(activity.input) as [{ seqs: number[] }];
        scheduled.set(Number(e.eventId), seqs);
        facts.seqsInActivities += seqs.length;
        seqs.forEach((s) => inActivities.add(s));
      }
      const started = e.activityTaskStartedEventAttributes;
      if (started && scheduled.has(Number(started.scheduledEventId))) {
        const who = started.identity ?? '?';
        facts.byWorker.set(who, (facts.byWorker.get(who) ?? 0) + scheduled.get(Number(started.scheduledEventId))!.length);
      }
    }
  }
  facts.distinctSignalled = signalled.size;
  facts.distinctInActivities = inActivities.size;
  return facts;
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
  // Accepted but never recorded, or recorded but never fanned out.
  const lost = Math.max(0, accepted - recorded) + (recorded - fanned);
  const duplicated =
    sum((r) => r.doubleNew) +
    sum((r) => r.recorded - r.answersNew) +
    sum((r) => r.histories.signalledSeqs - r.histories.distinctSignalled) +
    sum((r) => r.histories.seqsInActivities - r.histories.distinctInActivities);
  const relays = new Map<string, number>();
  const workers = new Map<string, number>();
  const actions = noActions();
  for (const r of rounds) {
    r.histories.byRelay.forEach((n, who) => relays.set(who, (relays.get(who) ?? 0) + n));
    r.histories.byWorker.forEach((n, who) => workers.set(who, (workers.get(who) ?? 0) + n));
    addActions(actions, r.histories.actions);
  }
  return [
    `${setup}: lost=${lost} duplicated=${duplicated} (accepted ${accepted} distinct deliveries + ${sum((r) => r.duplicatesSent)} duplicates sent ${setup === '2x2' ? 'to the other replica' : 'again'} at the same moment; event rows ${recorded}, fanned out ${fanned}; answered new twice ${sum((r) => r.doubleNew)}; seqs signalled ${sum((r) => r.histories.signalledSeqs)} (distinct ${sum((r) => r.histories.distinctSignalled)}), seqs in fan-out activities ${sum((r) => r.histories.seqsInActivities)} (distinct ${sum((r) => r.histories.distinctInActivities)}))`,
    `${setup}: events relayed by ${share(relays, names)}; fanned out by ${share(workers, names)}`,
    `${setup}: Temporal actions ${actions.total} = ${(actions.total / accepted).toFixed(3)} per delivery (starts ${actions.start}, signals ${actions.signals}, activities ${actions.activities}, retries ${actions.activityRetries}, local-activity tasks ${actions.localActivityTasks}, timers ${actions.timers})`,
  ];
}

/**
 * The site-platform webhook intake on one machine with TWO API replicas (two bench server processes, each with its
 * receiver and its relay: `for update skip locked` relays share the outbox through Postgres) and TWO product workers
 * (two processes on one task queue), against one replica and one worker, alternating rounds of the same offered load
 * (16 requests in flight in all; deliveries round-robin over the replicas). Every tenth delivery is sent at the same
 * moment to the other replica too: the durable dedup must answer one of the pair `replay`. After each round every
 * accepted delivery must be recorded once, handed to its site's fan-out workflow once and fanned out once — read from
 * the event rows and from the fan-out workflows' histories (signal payloads, activity inputs, who sent and ran them).
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
