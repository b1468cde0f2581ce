import type { AppDeps } from '../../deps';
import { describeRun } from '../../temporal/jobView';
import { eventsSince, type TurnRow } from './store';
import type { TurnView } from './turnJson';

export const DEFAULT_EVENTS_LIMIT = 200;
export const MAX_EVENTS_LIMIT = 500;
/** A quiet running turn is checked against Temporal only after this long (a poll is one row read before that). */
const CHECK_RUN_AFTER_MS = 10_000;

type ViewDeps = Pick<AppDeps, 'config' | 'db' | 'temporal'>;

async function isStale(deps: ViewDeps, turn: Omit<TurnRow, 'transcript' | 'caller'>): Promise<boolean> {
  if (turn.status !== 'running') return false;
  const quietMs = Date.now() - turn.progress_at.getTime();
  if (quietMs >= deps.config.AI_TURN_STALE_SECONDS * 1000) return true;
  if (quietMs < CHECK_RUN_AFTER_MS) return false;
  const run = await describeRun(deps.temporal, turn.workflow_id).catch(() => null);
  return !run || run.status.name !== 'RUNNING';
}

export async function turnView(
  deps: ViewDeps,
  turn: Omit<TurnRow, 'transcript' | 'caller'>,
  sinceSeq: number,
  limit = DEFAULT_EVENTS_LIMIT,
): Promise<TurnView> {
  const [rows, stale] = await Promise.all([eventsSince(deps.db, turn.id, sinceSeq, limit + 1), isStale(deps, turn)]);
  const events = rows.slice(0, limit).map((e) => ({ seq: e.seq, type: e.type, data: e.data, at: e.created_at.toISOString() }));
  return {
    session_id: turn.session_id,
    turn_id: turn.id,
    job_id: turn.workflow_id,
    project_id: turn.project_id,
    status: turn.status,
    stale,
    response: turn.status === 'completed' ? turn.response : null,
    tool_calls: turn.tool_calls.map((c) => ({ id: c.id, name: c.name, status: c.status, http_status: c.http_status })),
    data_updates: turn.data_updates,
    pending_call: turn.pending_call ?? null,
    error: turn.error,
    events,
    next_seq: events.at(-1)?.seq ?? sinceSeq,
    has_more: rows.length > limit,
    created_at: turn.created_at.toISOString(),
    finished_at: turn.finished_at?.toISOString() ?? null,
  };
}
