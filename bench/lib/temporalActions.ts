import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import type { DrainPassResult, HandOver } from '../../workflows/outboxDrain.contract';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/**
 * Temporal Cloud billable actions of one run, read from its event history as docs.temporal.io/cloud/actions counts
 * them: a start (a Schedule firing: 3), each signal (signal-with-start that started the run: one with the start),
 * each activity scheduled and each retry (attempt − 1), the local activities of one workflow task as one, each timer
 * (implicit ones of `condition(…, timeout)` included), each child start (intent + attempt: 2), each search-attribute
 * upsert, each accepted update. Not in the history, so not here: queries, heartbeats, schedule create/update/delete,
 * and the Fairness surcharge (+0.1 per action while a namespace has fairness on).
 */
export interface Actions {
  total: number;
  start: number;
  signals: number;
  activities: number;
  activityRetries: number;
  localActivityTasks: number;
  timers: number;
  childStarts: number;
  upserts: number;
  updates: number;
}

const zero = (): Actions => ({
  total: 0,
  start: 0,
  signals: 0,
  activities: 0,
  activityRetries: 0,
  localActivityTasks: 0,
  timers: 0,
  childStarts: 0,
  upserts: 0,
  updates: 0,
});

export function actionsOf(events: HistoryEvent[]): Actions {
  const a = zero();
  let markersThisTask = false;
  events.forEach((e, i) => {
    if (e.workflowExecutionStartedEventAttributes) {
      const scheduled = Object.keys(e.workflowExecutionStartedEventAttributes.searchAttributes?.indexedFields ?? {}).includes(
        'TemporalScheduledById',
      );
      a.start += scheduled ? 3 : 1;
    } else if (e.workflowExecutionSignaledEventAttributes) {
      // Signal-with-start that created the run: Started then Signaled, one action in all.
      const withStart = i === 1 && !!events[0].workflowExecutionStartedEventAttributes;
      if (!withStart) a.signals++;
    } else if (e.activityTaskScheduledEventAttributes) a.activities++;
    else if (e.activityTaskStartedEventAttributes)
      a.activityRetries += Math.max(0, (e.activityTaskStartedEventAttributes.attempt ?? 1) - 1);
    else if (e.workflowTaskCompletedEventAttributes) {
      markersThisTask = false;
      a.localActivityTasks += Number(e.workflowTaskCompletedEventAttributes.meteringMetadata?.nonfirstLocalActivityExecutionAttempts ?? 0);
    } else if (e.markerRecordedEventAttributes) {
      if (e.markerRecordedEventAttributes.markerName === 'core_local_activity' && !markersThisTask) {
        a.localActivityTasks++;
        markersThisTask = true;
      }
    } else if (e.timerStartedEventAttributes) a.timers++;
    else if (e.startChildWorkflowExecutionInitiatedEventAttributes) a.childStarts += 2;
    else if (e.upsertWorkflowSearchAttributesEventAttributes) a.upserts++;
    else if (e.workflowExecutionUpdateAcceptedEventAttributes) a.updates++;
  });
  a.total =
    a.start + a.signals + a.activities + a.activityRetries + a.localActivityTasks + a.timers + a.childStarts + a.upserts + a.updates;
  return a;
}

export function addActions(into: Actions, a: Actions): Actions {
  for (const key of Object.keys(into) as Array<keyof Actions>) into[key] += a[key];
  return into;
}

export const noActions = zero;

export async function historyOf(client: Client, workflowId: string, runId?: string): Promise<HistoryEvent[]> {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  return history.events ?? [];
}

export interface Execution {
  workflowId: string;
  runId: string;
  type: string;
  closed: boolean;
}

/** Every run the visibility store lists for the query (all types when empty). */
export async function listExecutions(client: Client, query?: string): Promise<Execution[]> {
  const out: Execution[] = [];
  for await (const w of client.workflow.list(query ? { query } : {})) {
    out.push({ workflowId: w.workflowId, runId: w.runId, type: w.type, closed: w.status.name !== 'RUNNING' });
  }
  return out;
}

/** JSON payloads of a history event's input (signal or activity arguments). */
export function decodePayloads(payloads: temporal.api.common.v1.IPayloads | null | undefined): unknown[] {
  return (payloads?.payloads ?? []).map((p) => (p.data ? JSON.parse(Buffer.from(p.data).toString('utf8')) : undefined));
}

/**
 * The histories of every run in the chain of the workflow's latest run, first to last: from the chain's first run
 * (the latest run's `firstRunId`), following each run's continued-as-new `newExecutionRunId`.
 */
export async function chainHistories(client: Client, workflowId: string): Promise<HistoryEvent[][]> {
  const described = await client.workflow.getHandle(workflowId).describe();
  const runs: HistoryEvent[][] = [];
  let runId: string | undefined = described.raw.workflowExecutionInfo?.firstRunId || described.runId;
  while (runId) {
    const events = await historyOf(client, workflowId, runId);
    runs.push(events);
    runId = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId || undefined;
  }
  return runs;
}

/** What the chain of runs of an entity workflow draining an outbox (workflows/outboxDrain.ts) says. */
export interface DrainChainFacts {
  runs: number;
  /** History events of each run, first to last. */
  lengths: number[];
  signals: number;
  /** Rows the first hand-over signals said were handed over (`count`), and the signals that handed rows over again. */
  handedOver: number;
  againSignals: number;
  /** Passes (activities of type `activity`) scheduled, and the rows their completed attempts say they handled. */
  passes: number;
  handled: number;
  /** Pass attempts beyond the first. */
  retries: number;
  /** Rows handed over (first hand-overs) per client identity (pid@host of the relay's process that signalled). */
  byRelay: Map<string, number>;
  /** Rows handled per worker identity (completed pass attempts, by the identity that started them). */
  byWorker: Map<string, number>;
  actions: Actions;
}

export const noDrainChainFacts = (): DrainChainFacts => ({
  runs: 0,
  lengths: [],
  signals: 0,
  handedOver: 0,
  againSignals: 0,
  passes: 0,
  handled: 0,
  retries: 0,
  byRelay: new Map(),
  byWorker: new Map(),
  actions: zero(),
});

const addTo = (m: Map<string, number>, who: string, n: number) => m.set(who, (m.get(who) ?? 0) + n);

/** Reads the chain of the workflow's latest run: its hand-over signals (`HandOver`) and its passes' results (`DrainPassResult`). */
export async function drainChainFacts(client: Client, workflowId: string, activity: string): Promise<DrainChainFacts> {
  const runs = await chainHistories(client, workflowId);
  const facts: DrainChainFacts = { ...noDrainChainFacts(), runs: runs.length, lengths: runs.map((events) => events.length) };
  for (const events of runs) {
    addActions(facts.actions, actionsOf(events));
    const startedBy = new Map<number, string>();
    for (const e of events) {
      const signal = e.workflowExecutionSignaledEventAttributes;
      if (signal) {
        const [handOver] = decodePayloads(signal.input) as [HandOver];
        facts.signals++;
        if (handOver.again) facts.againSignals++;
        else {
          facts.handedOver += handOver.count;
          addTo(facts.byRelay, signal.identity ?? '?', handOver.count);
        }
      }
      if (e.activityTaskScheduledEventAttributes?.activityType?.name === activity) facts.passes++;
      const started = e.activityTaskStartedEventAttributes;
      if (started) {
        startedBy.set(Number(e.eventId), started.identity ?? '?');
        facts.retries += Math.max(0, (started.attempt ?? 1) - 1);
      }
      const completed = e.activityTaskCompletedEventAttributes;
      if (completed) {
        const [result] = decodePayloads(completed.result) as [DrainPassResult | undefined];
        facts.handled += result?.handled ?? 0;
        addTo(facts.byWorker, startedBy.get(Number(completed.startedEventId)) ?? completed.identity ?? '?', result?.handled ?? 0);
      }
    }
  }
  return facts;
}

/** Sums the facts of several chains (`lengths` concatenated). */
export function addDrainChainFacts(into: DrainChainFacts, f: DrainChainFacts): DrainChainFacts {
  for (const key of ['runs', 'signals', 'handedOver', 'againSignals', 'passes', 'handled', 'retries'] as const) into[key] += f[key];
  into.lengths.push(...f.lengths);
  f.byRelay.forEach((n, who) => addTo(into.byRelay, who, n));
  f.byWorker.forEach((n, who) => addTo(into.byWorker, who, n));
  addActions(into.actions, f.actions);
  return into;
}
