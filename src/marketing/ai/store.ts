import type { Knex } from '../../db/knex';
import type { PendingCall, ToolCallStatus, TurnEventType, TurnStatus } from './turnJson';

// Sessions, turns and turn events of the department AI chats. Every query filters on the account.

export interface SessionRow {
  id: string;
  account_id: string;
  department: string;
  project_id: string | null;
  created_by: string;
  turns: number;
  created_at: Date;
  updated_at: Date;
}

export interface TurnRow {
  id: string;
  account_id: string;
  session_id: string;
  project_id: string | null;
  workflow_id: string;
  request_hash: string;
  caller: unknown;
  message: string;
  status: TurnStatus;
  response: string | null;
  tool_calls: StoredToolCall[];
  data_updates: unknown[];
  transcript: unknown[];
  pending_call: PendingCall | null;
  error: { code: string; message: string } | null;
  steps: number;
  last_seq: number;
  progress_at: Date;
  created_at: Date;
  finished_at: Date | null;
}

/** A tool call as the turn records it (the arguments stay in the database, never in workflow history). */
export interface StoredToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  status: ToolCallStatus;
  http_status: number | null;
}

export interface EventRow {
  seq: number;
  type: TurnEventType;
  data: Record<string, unknown>;
  created_at: Date;
}

export async function insertSession(
  db: Knex,
  row: { account_id: string; department: string; project_id: string | null; created_by: string },
): Promise<SessionRow> {
  const [session] = await db('ai_sessions').insert(row).returning('*');
  return session;
}

export async function findSession(db: Knex, accountId: string, id: string): Promise<SessionRow | undefined> {
  return db('ai_sessions').where({ account_id: accountId, id }).first();
}

/** Inserts the turn unless one with its id exists; answers the stored row either way (`created` tells which). */
export async function insertTurn(
  db: Knex,
  row: Pick<TurnRow, 'id' | 'account_id' | 'session_id' | 'project_id' | 'workflow_id' | 'request_hash' | 'message'> & {
    caller: unknown;
  },
): Promise<{ turn: TurnRow; created: boolean }> {
  return db.transaction(async (trx) => {
    const inserted = await trx('ai_turns')
      .insert({ ...row, caller: JSON.stringify(row.caller) })
      .onConflict('id')
      .ignore()
      .returning('*');
    if (inserted.length) {
      await trx('ai_sessions')
        .where({ account_id: row.account_id, id: row.session_id })
        .update({ turns: trx.raw('turns + 1'), updated_at: trx.fn.now() });
      return { turn: inserted[0] as TurnRow, created: true };
    }
    return { turn: (await trx('ai_turns').where({ id: row.id }).first()) as TurnRow, created: false };
  });
}

export async function findTurn(db: Knex, accountId: string, id: string): Promise<TurnRow | undefined> {
  return db('ai_turns').where({ account_id: accountId, id }).first();
}

/** The fields of a turn a poll reads (no transcript). */
export async function findTurnView(db: Knex, accountId: string, id: string): Promise<Omit<TurnRow, 'transcript' | 'caller'> | undefined> {
  return db('ai_turns')
    .where({ account_id: accountId, id })
    .first(
      'id',
      'account_id',
      'session_id',
      'project_id',
      'workflow_id',
      'request_hash',
      'message',
      'status',
      'response',
      'tool_calls',
      'data_updates',
      'pending_call',
      'error',
      'steps',
      'last_seq',
      'progress_at',
      'created_at',
      'finished_at',
    );
}

export async function turnStatus(db: Knex, accountId: string, id: string): Promise<TurnStatus | undefined> {
  const row = await db('ai_turns').where({ account_id: accountId, id }).first('status');
  return row?.status;
}

/** Changes a turn's fields (jsonb fields given as values) and marks progress. */
export async function updateTurn(db: Knex, accountId: string, id: string, fields: Partial<Record<keyof TurnRow, unknown>>): Promise<void> {
  const json = Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [k, v !== null && typeof v === 'object' && !(v instanceof Date) ? JSON.stringify(v) : v]),
  );
  await db('ai_turns')
    .where({ account_id: accountId, id })
    .update({ ...json, progress_at: db.fn.now() });
}

/** The channel a turn's end (or its wait for a confirmation) is announced on; the payload is the turn id. */
export const TURN_CHANNEL = 'ai_turns';

/** Announces that the turn stopped running; delivered when `db`'s transaction commits (at once outside one). */
export async function notifyTurnStopped(db: Knex, turnId: string): Promise<void> {
  await db.raw('select pg_notify(?, ?)', [TURN_CHANNEL, turnId]);
}

/** Marks the turn alive (its workflow is working on it). */
export async function touchTurn(db: Knex, accountId: string, id: string): Promise<void> {
  await db('ai_turns').where({ account_id: accountId, id }).update({ progress_at: db.fn.now() });
}

/**
 * Appends an event with the next `seq` of the turn, unless an event with this `key` is already recorded (an activity
 * retry): the turn row is locked for the insert, so seqs are gap-free and strictly increasing. Given a transaction,
 * the event is written in it (with the change it records); else in a transaction of its own.
 */
export async function appendEvent(
  db: Knex,
  accountId: string,
  turnId: string,
  event: { key: string; type: TurnEventType; data: Record<string, unknown> },
): Promise<number | null> {
  const append = async (trx: Knex.Transaction): Promise<number | null> => {
    const turn = await trx('ai_turns').where({ account_id: accountId, id: turnId }).forUpdate().first('last_seq');
    if (!turn) return null;
    const seen = await trx('ai_turn_events').where({ turn_id: turnId, key: event.key }).first('seq');
    if (seen) return seen.seq as number;
    const seq = (turn.last_seq as number) + 1;
    await trx('ai_turn_events').insert({ turn_id: turnId, seq, key: event.key, type: event.type, data: JSON.stringify(event.data) });
    await trx('ai_turns').where({ id: turnId }).update({ last_seq: seq, progress_at: trx.fn.now() });
    return seq;
  };
  return db.isTransaction ? append(db as Knex.Transaction) : db.transaction(append);
}

/** The turn's events after `sinceSeq`, oldest first, at most `limit`. The caller has checked the turn is the account's. */
export async function eventsSince(db: Knex, turnId: string, sinceSeq: number, limit: number): Promise<EventRow[]> {
  return db('ai_turn_events')
    .where({ turn_id: turnId })
    .andWhere('seq', '>', sinceSeq)
    .orderBy('seq')
    .limit(limit)
    .select('seq', 'type', 'data', 'created_at');
}

/** The session's finished turns before `beforeTurnCreatedAt`, newest first, at most `limit` (the chat history window). */
export async function previousTurns(
  db: Knex,
  accountId: string,
  sessionId: string,
  before: Date,
  limit: number,
): Promise<Array<{ message: string; response: string | null; status: TurnStatus }>> {
  if (limit <= 0) return [];
  return db('ai_turns')
    .where({ account_id: accountId, session_id: sessionId })
    .andWhere('created_at', '<', before)
    .whereIn('status', ['completed', 'failed', 'cancelled'])
    .orderBy('created_at', 'desc')
    .limit(limit)
    .select('message', 'response', 'status');
}

/** How many finished turns of the session precede `before` (to say how many the window leaves out). */
export async function countPreviousTurns(db: Knex, accountId: string, sessionId: string, before: Date): Promise<number> {
  const [{ n }] = await db('ai_turns')
    .where({ account_id: accountId, session_id: sessionId })
    .andWhere('created_at', '<', before)
    .whereIn('status', ['completed', 'failed', 'cancelled'])
    .count<{ n: string }[]>({ n: '*' });
  return Number(n);
}
