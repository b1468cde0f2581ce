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

/** A conflict that changes the row: a close it did not have, or something of its start it lacks. */
const TAKES_SOMETHING = [
  'job_index.closed_at is null and excluded.closed_at is not null',
  ...['content_id', 'connection_id', 'project_id', 'replay_of'].map((c) => `(job_index.${c} is null and excluded.${c} is not null)`),
  "(job_index.tags = '{}' and excluded.tags <> '{}')",
  "(job_index.metadata = '{}' and excluded.metadata <> '{}')",
].join(' or ');

/**
 * Records runs. A new run is inserted. A known run takes a close it did not have, and a closed run keeps its close (a
 * later read of an older visibility row cannot reopen it). What a run was started with (content, connection, project,
 * tags, metadata, replay_of) never changes, so it is filled in where a row lacks it: a job that closes before the
 * API has recorded its start is first recorded by its own close report, which knows none of it.
 */
export async function upsertJobRuns(db: Knex, rows: JobIndexRow[]): Promise<void> {
  if (rows.length === 0) return;
  const closes = 'job_index.closed_at is null and excluded.closed_at is not null';
  const filled = (column: string) => db.raw(`coalesce(job_index.${column}, excluded.${column})`);
  await db('job_index')
    .insert(rows.map((row) => ({ ...row, metadata: JSON.stringify(row.metadata) })))
    .onConflict('run_id')
    .merge({
      status: db.raw(`case when ${closes} then excluded.status else job_index.status end`),
      closed_at: db.raw(`case when ${closes} then excluded.closed_at else job_index.closed_at end`),
      content_id: filled('content_id'),
      connection_id: filled('connection_id'),
      project_id: filled('project_id'),
      replay_of: filled('replay_of'),
      tags: db.raw("case when job_index.tags = '{}' then excluded.tags else job_index.tags end"),
      metadata: db.raw("case when job_index.metadata = '{}' then excluded.metadata else job_index.metadata end"),
    })
    .whereRaw(TAKES_SOMETHING);
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
