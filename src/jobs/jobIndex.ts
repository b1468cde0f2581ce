import type { TemporalDeps } from '../deps';
import type { Knex } from '../db/knex';
import { ApiError } from '../http/errors';
import { isUuid } from '../http/ids';
import type { CursorPage } from '../http/pagination';
import { accountOfRun, jobSummaryOf, temporalUiLink, type RunInfo } from '../temporal/jobView';
import type { JobListFilters, JobSummary } from './schemas';
import { listJobRuns, type JobIndexPosition, type JobIndexRow } from './jobIndexStore';
import { decodeCursor, encodeCursor } from './visibility';

/** The index row of a run read from Temporal; null for a run that is no account's job (a sweep, a foreign workflow). */
export function jobIndexRowOf(temporal: TemporalDeps, run: RunInfo): JobIndexRow | null {
  const accountId = accountOfRun(run);
  if (!accountId || !isUuid(accountId)) return null;
  const { id, links: _links, created_at, closed_at, ...summary } = jobSummaryOf(temporal, run);
  return {
    ...summary,
    job_id: id,
    account_id: accountId,
    created_at: new Date(created_at),
    closed_at: closed_at ? new Date(closed_at) : null,
  };
}

function summaryOf(temporal: Pick<TemporalDeps, 'namespace' | 'uiUrl'>, row: JobIndexRow): JobSummary {
  return {
    id: row.job_id,
    kind: row.kind,
    status: row.status,
    run_id: row.run_id,
    content_id: row.content_id,
    connection_id: row.connection_id,
    project_id: row.project_id,
    tags: row.tags,
    metadata: row.metadata,
    replay_of: row.replay_of,
    created_at: row.created_at.toISOString(),
    closed_at: row.closed_at ? row.closed_at.toISOString() : null,
    links: { temporal_ui: temporalUiLink(temporal, row.job_id, row.run_id) },
  };
}

export type JobPage = CursorPage<JobSummary>;

/** What a cursor is bound to: the account and the filters (a cursor continues only the listing it came from). */
function listingKey(accountId: string, filters: JobListFilters): string {
  return JSON.stringify([accountId, filters.kind ?? null, filters.status ?? null, filters.content_id ?? null, filters.tag ?? null]);
}

function positionOf(token: Buffer): JobIndexPosition {
  try {
    const [closed, at, runId] = JSON.parse(token.toString('utf8')) as unknown[];
    if (typeof closed === 'boolean' && typeof at === 'string' && !Number.isNaN(Date.parse(at)) && typeof runId === 'string') {
      return { closed, at, runId };
    }
  } catch {
    // Falls through: the MAC matched, but this is not a position this code wrote.
  }
  throw new ApiError(400, 'invalid_cursor', 'cursor is not a next_cursor of this listing (same filters)');
}

/** A page of the account's jobs from the job index: running first (newest first), then closed ones by close time. */
export async function listIndexedJobs(
  deps: { db: Knex; temporal: Pick<TemporalDeps, 'namespace' | 'uiUrl'>; secretHashKey: string },
  accountId: string,
  filters: JobListFilters,
): Promise<JobPage> {
  const key = listingKey(accountId, filters);
  const position = filters.cursor ? positionOf(decodeCursor(deps.secretHashKey, key, filters.cursor)) : undefined;
  const rows = await listJobRuns(deps.db, accountId, filters, filters.limit, position);
  const page = rows.slice(0, filters.limit);
  const last = page.at(-1);
  const more = rows.length > filters.limit && last !== undefined;
  return {
    data: page.map((row) => summaryOf(deps.temporal, row)),
    limit: filters.limit,
    next_cursor: more
      ? encodeCursor(deps.secretHashKey, key, Buffer.from(JSON.stringify([last.is_closed, last.list_at.toISOString(), last.run_id])))
      : null,
    has_more: more,
  };
}
