import { createHash } from 'node:crypto';
import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  type Client,
  type ScheduleDescription,
  type ScheduleOptions,
} from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import { temporalErrorText } from './errorText';
import { isJobKind } from './jobIds';
import { isUnavailable } from './rpc';
import { jobSearchAttributes } from './jobs';
import type { ScheduleEntry } from './schedules';
import { AccountIdKey, JobKindKey, SYSTEM_ACCOUNT } from './searchAttributes';

/** Schedules this table manages; anything else in the namespace is left alone. */
export const SCHEDULE_ID_PREFIX = 'workyard:';
const TIMEZONE = 'UTC';
const DEFAULT_OVERLAP = 'SKIP';

// A type alias (not an interface), so callers can treat it as a plain record.
export type SyncResult = {
  created: string[];
  updated: string[];
  deleted: string[];
  unchanged: string[];
};

export const scheduleIdOf = (name: string) => `${SCHEDULE_ID_PREFIX}${name}`;
/** Scheduled runs get ids `cron:<name>-<scheduled time>` (Temporal appends the time); manual runs `cron:<name>:<uuid>`. */
export const scheduledWorkflowIdOf = (name: string) => `cron:${name}`;

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Temporal compiles a cron expression into calendar ranges and does not keep the text, so each schedule's
 * action memo carries a digest of the entry it was written from; a changed cron changes the digest.
 */
function digestOf(entry: ScheduleEntry, taskQueue: string): string {
  const { name, cron, workflowType, args, description } = entry;
  const overlap = entry.overlap ?? DEFAULT_OVERLAP;
  return createHash('sha256')
    .update(canonical({ name, cron, timezone: TIMEZONE, workflowType, args, taskQueue, overlap, description }))
    .digest('hex');
}

function desiredOf(entry: ScheduleEntry, taskQueue: string): Omit<ScheduleOptions, 'scheduleId'> {
  return {
    spec: { cronExpressions: [entry.cron], timezone: TIMEZONE },
    action: {
      type: 'startWorkflow',
      workflowType: entry.workflowType,
      workflowId: scheduledWorkflowIdOf(entry.name),
      taskQueue,
      args: entry.args,
      typedSearchAttributes: jobSearchAttributes(entry.name, SYSTEM_ACCOUNT),
      memo: { schedule: entry.name, description: entry.description, digest: digestOf(entry, taskQueue) },
    },
    policies: { overlap: entry.overlap ?? DEFAULT_OVERLAP },
  };
}

/**
 * The table's digest and every part an operator could have edited by hand (the cron text is covered by the digest);
 * a running schedule's note is its description.
 */
function matches(current: ScheduleDescription, entry: ScheduleEntry, taskQueue: string): boolean {
  const { action } = current;
  const attrs =
    action.typedSearchAttributes instanceof TypedSearchAttributes
      ? action.typedSearchAttributes
      : new TypedSearchAttributes(action.typedSearchAttributes);
  return (
    action.memo?.digest === digestOf(entry, taskQueue) &&
    action.workflowType === entry.workflowType &&
    action.workflowId === scheduledWorkflowIdOf(entry.name) &&
    action.taskQueue === taskQueue &&
    canonical(action.args ?? []) === canonical(JSON.parse(JSON.stringify(entry.args))) &&
    attrs.get(AccountIdKey) === SYSTEM_ACCOUNT &&
    attrs.get(JobKindKey) === entry.name &&
    current.policies.overlap === (entry.overlap ?? DEFAULT_OVERLAP) &&
    (current.state.paused || current.state.note === entry.description) &&
    current.spec.timezone === TIMEZONE &&
    (current.spec.calendars?.length ?? 0) === 1 &&
    !current.spec.intervals?.length
  );
}

function assertTable(table: ScheduleEntry[]): void {
  const seen = new Set<string>();
  for (const { name } of table) {
    if (!isJobKind(name))
      throw new TypeError(
        `schedule name ${JSON.stringify(name)} must be lowercase letters, digits, _ and - (it is also the JobKind and the /api/cron/ path)`,
      );
    if (seen.has(name)) throw new TypeError(`schedule name ${name} appears twice`);
    seen.add(name);
  }
}

/** Describes tried in all when the server does not answer in time. */
const DESCRIBE_ATTEMPTS = 4;

/**
 * The schedule as the server holds it, or null. A describe asks the schedule's own workflow, which a server that has
 * just restarted (a dev server on its file, a cluster rolling) may not run yet: the server's deadline passes, and
 * the describe is tried again a few times before the sync fails.
 */
async function describeOrNull(client: Client, id: string): Promise<ScheduleDescription | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.schedule.getHandle(id).describe();
    } catch (err) {
      if (err instanceof ScheduleNotFoundError) return null;
      if (!isUnavailable(err) || attempt >= DESCRIBE_ATTEMPTS) throw err;
      await new Promise((resolve) => setTimeout(resolve, 1_000 * attempt));
    }
  }
}

/** The SDK's schedule errors say only `Failed to create schedule`; the server's reason is in their gRPC cause. */
export class ScheduleSyncError extends Error {
  constructor(
    readonly schedule: string,
    cause: unknown,
  ) {
    super(`schedule ${schedule}: ${temporalErrorText(cause)}`, { cause });
    this.name = 'ScheduleSyncError';
  }
}

const rethrowFor =
  (name: string) =>
  (err: unknown): never => {
    throw new ScheduleSyncError(name, err);
  };

async function syncEntry(client: Client, entry: ScheduleEntry, taskQueue: string): Promise<keyof SyncResult> {
  const id = scheduleIdOf(entry.name);
  const desired = desiredOf(entry, taskQueue);
  let current = await describeOrNull(client, id);
  if (!current) {
    try {
      await client.schedule.create({
        scheduleId: id,
        ...desired,
        state: { note: entry.description },
        memo: { managedBy: 'workyard schedules sync' },
      });
      return 'created';
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      current = await describeOrNull(client, id); // created concurrently by another sync
      if (!current) throw err;
    }
  }
  if (matches(current, entry, taskQueue)) return 'unchanged';
  // The pause belongs to operators, and so does a paused schedule's note (it says why): an update keeps them.
  await client.schedule.getHandle(id).update((previous) => ({
    ...desired,
    state: {
      paused: previous.state.paused,
      note: previous.state.paused ? previous.state.note : entry.description,
      remainingActions: previous.state.remainingActions,
    },
  }));
  return 'updated';
}

/**
 * Makes Temporal's Schedules match `table`: schedule id `workyard:<name>`, cron in UTC, each run started with
 * `AccountId = '_system'` and `JobKind = <name>`, the entry's description as the note (kept off a paused schedule,
 * whose note says why it is paused). Creates what is missing, updates what differs (spec, action,
 * overlap policy), deletes `workyard:` schedules no longer in the table and leaves every other schedule alone.
 * Running it twice changes nothing the second time. Entries are read by id (strongly consistent); stale schedules
 * are found through the schedule list, which is eventually consistent: one created a moment ago by someone else
 * may be deleted by the next run instead of this one. Results name schedules by table name.
 */
export async function syncSchedules(client: Client, table: ScheduleEntry[], taskQueue: string): Promise<SyncResult> {
  assertTable(table);
  const result: SyncResult = { created: [], updated: [], deleted: [], unchanged: [] };
  for (const entry of table) result[await syncEntry(client, entry, taskQueue).catch(rethrowFor(entry.name))].push(entry.name);

  const wanted = new Set(table.map((entry) => scheduleIdOf(entry.name)));
  const stale: string[] = [];
  for await (const schedule of client.schedule.list()) {
    if (schedule.scheduleId.startsWith(SCHEDULE_ID_PREFIX) && !wanted.has(schedule.scheduleId)) stale.push(schedule.scheduleId);
  }
  for (const id of stale) {
    try {
      await client.schedule.getHandle(id).delete();
      result.deleted.push(id.slice(SCHEDULE_ID_PREFIX.length));
    } catch (err) {
      // ScheduleNotFoundError: already gone (the list lags behind deletes).
      if (!(err instanceof ScheduleNotFoundError)) throw new ScheduleSyncError(id.slice(SCHEDULE_ID_PREFIX.length), err);
    }
  }
  return result;
}
