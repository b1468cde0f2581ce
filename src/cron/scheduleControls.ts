import { ScheduleNotFoundError } from '@temporalio/client';
import type { AppDeps } from '../deps';
import { ApiError } from '../http/errors';
import { describeRun } from '../temporal/jobView';
import { withTemporal } from '../temporal/rpc';
import { scheduleIdOf } from '../temporal/scheduleSync';

type Deps = Pick<AppDeps, 'temporal' | 'schedules'>;

export interface ScheduleView {
  name: string;
  cron: string;
  description: string;
  workflow_type: string;
  overlap: string;
  /** What `POST /api/cron/<name>` takes in its body (none for most sweeps). */
  run_now_options: string[];
  /** False when the table names it but Temporal has no such schedule (not synced yet: `npm start` or `schedules sync`). */
  synced: boolean;
  paused: boolean;
  note: string | null;
  /** The next three times it would fire (UTC). */
  next_runs: string[];
  /** The newest run it started, with the status of that run now. */
  last_run: { job_id: string; scheduled_at: string; started_at: string; status: string } | null;
}

const notFound = (name: string) => new ApiError(404, 'schedule_not_found', `no schedule named ${JSON.stringify(name.slice(0, 100))}`);

/** The table's entry of that name, or 404 `schedule_not_found`. */
export function entryOf(deps: Pick<AppDeps, 'schedules'>, name: string) {
  const entry = deps.schedules.find((e) => e.name === name);
  if (!entry) throw notFound(name);
  return entry;
}

async function viewOf(deps: Deps, entry: Deps['schedules'][number]): Promise<ScheduleView> {
  const base = {
    name: entry.name,
    cron: entry.cron,
    description: entry.description,
    workflow_type: entry.workflowType,
    overlap: entry.overlap ?? 'SKIP',
    run_now_options: entry.runNowOptions ?? [],
  };
  const { client } = deps.temporal;
  let described;
  try {
    described = await withTemporal(client, () => client.schedule.getHandle(scheduleIdOf(entry.name)).describe());
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return { ...base, synced: false, paused: false, note: null, next_runs: [], last_run: null };
    throw err;
  }
  const last = described.info.recentActions.at(-1);
  const lastRun = last
    ? {
        job_id: last.action.workflow.workflowId,
        scheduled_at: last.scheduledAt.toISOString(),
        started_at: last.takenAt.toISOString(),
        status: (await describeRun(deps.temporal, last.action.workflow.workflowId))?.status.name.toLowerCase() ?? 'unknown',
      }
    : null;
  return {
    ...base,
    synced: true,
    paused: described.state.paused,
    note: described.state.note ?? null,
    next_runs: described.info.nextActionTimes.slice(0, 3).map((t) => t.toISOString()),
    last_run: lastRun,
  };
}

/** Every schedule of the table as Temporal has it now: spec, paused and its note, next runs, the last run's outcome. */
export async function listSchedules(deps: Deps): Promise<ScheduleView[]> {
  return Promise.all(deps.schedules.map((entry) => viewOf(deps, entry)));
}

async function withSchedule(deps: Deps, name: string, act: (id: string) => Promise<void>): Promise<ScheduleView> {
  const entry = entryOf(deps, name);
  try {
    await withTemporal(deps.temporal.client, () => act(scheduleIdOf(name)));
  } catch (err) {
    if (err instanceof ScheduleNotFoundError)
      throw new ApiError(409, 'schedule_not_synced', `schedule ${name} is not in Temporal yet; run \`schedules sync\``);
    throw err;
  }
  return viewOf(deps, entry);
}

/** Pauses a schedule (its runs stop until unpaused); the note says why, in Temporal's UI too. */
export const pauseSchedule = (deps: Deps, name: string, note: string) =>
  withSchedule(deps, name, (id) => deps.temporal.client.schedule.getHandle(id).pause(note));

export const unpauseSchedule = (deps: Deps, name: string, note: string) =>
  withSchedule(deps, name, (id) => deps.temporal.client.schedule.getHandle(id).unpause(note));

/** Fires a schedule now through Temporal (its overlap policy applies: a run still going is not doubled under SKIP). */
export const triggerSchedule = (deps: Deps, name: string) =>
  withSchedule(deps, name, (id) => deps.temporal.client.schedule.getHandle(id).trigger());
