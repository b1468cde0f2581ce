import type { Knex } from '../db/knex';
import type { JobStatus } from './schemas';

/** One run of an account's job as the index holds it (a JobSummary without its links, plus the owner). */
export interface JobIndexRow {
  run_id: string;
  job_id: string;
  account_id: string;
  kind: string;
  status: JobStatus;
  content_id: string | null;
  connection_id: string | null;
  project_id: string | null;
  tags: string[];
  metadata: Record<string, string>;
  replay_of: string | null;
  created_at: Date;
  closed_at: Date | null;
}

/** Where a page of the listing continues: after this row in the order (running first, then by `list_at`, newest first). */
export interface JobIndexPosition {
  closed: boolean;
  at: string;
  runId: string;
}

export interface JobIndexFilters {
  kind?: string;
  status?: JobStatus;
  content_id?: string;
  tag?: string;
}

const COLUMNS = [
  'run_id',
  'job_id',
  'account_id',
  'kind',
  'status',
  'content_id',
  'connection_id',
  'project_id',
  'tags',
  'metadata',
  'replay_of',
  'created_at',
  'closed_at',
] as const;

/**
 * Records runs. A new run is inserted; a known running run takes the close it now has; a closed run is final and is
 * never changed again (a later read of an older visibility row cannot reopen it).
 */
export async function upsertJobRuns(db: Knex, rows: JobIndexRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db('job_index')
    .insert(rows.map((row) => ({ ...row, metadata: JSON.stringify(row.metadata) })))
    .onConflict('run_id')
    .merge(['status', 'closed_at'])
    .whereRaw('job_index.closed_at is null and excluded.closed_at is not null');
}

/** A run's close as the job itself reported it; a run the index does not hold yet is left to the watcher. */
export async function closeJobRun(db: Knex, runId: string, status: JobStatus, closedAt: Date): Promise<void> {
  await db('job_index').where({ run_id: runId, closed_at: null }).update({ status, closed_at: closedAt });
}

/** Runs that continued as new: the chain's next run is the job now. */
export async function dropJobRuns(db: Knex, runIds: string[]): Promise<void> {
  if (runIds.length > 0) await db('job_index').whereIn('run_id', runIds).delete();
}

/** Closed runs older than the namespace keeps them: their Temporal history is gone, so they are no job to show. */
export async function purgeJobRunsClosedBefore(db: Knex, before: Date): Promise<number> {
  return db('job_index').where('closed_at', '<', before).delete();
}

/** One page of the account's runs matching the filters, after `position`; `limit + 1` rows tell whether more follow. */
export async function listJobRuns(
  db: Knex,
  accountId: string,
  filters: JobIndexFilters,
  limit: number,
  position?: JobIndexPosition,
): Promise<Array<JobIndexRow & { is_closed: boolean; list_at: Date }>> {
  const query = db('job_index')
    .select([...COLUMNS, 'is_closed', 'list_at'])
    .where({ account_id: accountId });
  if (filters.kind) query.andWhere({ kind: filters.kind });
  if (filters.status) query.andWhere({ status: filters.status });
  if (filters.content_id) query.andWhere({ content_id: filters.content_id });
  if (filters.tag) query.andWhereRaw('tags @> array[?]::text[]', [filters.tag]);
  if (position) {
    query.andWhereRaw('(is_closed > ? or (is_closed = ? and (list_at, run_id) < (?::timestamptz, ?)))', [
      position.closed,
      position.closed,
      position.at,
      position.runId,
    ]);
  }
  return query
    .orderBy([
      { column: 'is_closed', order: 'asc' },
      { column: 'list_at', order: 'desc' },
      { column: 'run_id', order: 'desc' },
    ])
    .limit(limit + 1);
}

/** Running rows not asked about for `olderThan`, created before it too, least recently checked first; marked checked now. */
export async function claimUncheckedRuns(db: Knex, olderThan: Date, limit: number): Promise<Array<{ run_id: string; job_id: string }>> {
  const { rows } = await db.raw(
    `update job_index set checked_at = now()
      where run_id in (
        select run_id from job_index
         where closed_at is null and created_at < ? and (checked_at is null or checked_at < ?)
         order by checked_at nulls first, created_at
         limit ?
         for update skip locked)
      returning run_id, job_id`,
    [olderThan, olderThan, limit],
  );
  return rows;
}

export async function jobIndexBackfilled(db: Knex): Promise<boolean> {
  const row = await db('job_index_state').first('backfilled_at');
  return Boolean(row?.backfilled_at);
}

export async function markJobIndexBackfilled(db: Knex): Promise<void> {
  await db('job_index_state').update({ backfilled_at: db.fn.now() });
}
