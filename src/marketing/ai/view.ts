import type { AppDeps } from '../../deps';
import { describeRun } from '../../temporal/jobView';
import { eventsSince, type TurnRow } from './store';

export const DEFAULT_EVENTS_LIMIT = 200;
export const MAX_EVENTS_LIMIT = 500;
/** A quiet running turn is checked against Temporal only after this long (a poll is one row read before that). */
const CHECK_RUN_AFTER_MS = 10_000;

export interface TurnView {
  session_id: string;
  turn_id: string;
  /** The turn's job: `GET /api/jobs/{job_id}`, `POST /api/jobs/{job_id}/cancel`. */
  job_id: string;
  project_id: string | null;
  status: TurnRow['status'];
  /** Running, but its workflow made no progress for AI_TURN_STALE_SECONDS, or its run is gone or closed. */
  stale: boolean;
  /** The model's answer; null until the turn completed. */
  response: string | null;
  tool_calls: Array<{ id: string; name: string; status: string; http_status: number | null }>;
  data_updates: unknown[];
  /** The confirm-gated call the turn waits on (`status: awaiting_confirmation`), else null. */
  pending_call: unknown;
  error: { code: string; message: string } | null;
  events: Array<{ seq: number; type: string; data: Record<string, unknown>; at: string }>;
  /** The seq to send as `since_seq` next (the last one returned, or the one asked for). */
  next_seq: number;
  /** More events after these than the limit let through. */
  has_more: boolean;
  created_at: string;
  finished_at: string | null;
}

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
