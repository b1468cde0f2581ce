import type { AppDeps } from '../deps';
import { ApiError } from '../http/errors';
import type { CursorPage } from '../http/pagination';
import { decodeCursor, encodeCursor, listRuns, visibilityQuery } from '../jobs/visibility';
import { isPlausibleWorkflowId } from '../temporal/jobIds';
import type { JobStatus } from '../temporal/jobJson';
import { describeRun, runOutcomeOf } from '../temporal/jobView';
import { JobKindKey, AccountIdKey, SYSTEM_ACCOUNT } from '../temporal/searchAttributes';
import { inPool } from '../../workflows/pool';
import { entryOf } from './scheduleControls';
import { scheduleRunOf, type ScheduleRun, type ScheduleRunSummary } from './scheduleRunJson';

type Deps = Pick<AppDeps, 'temporal' | 'schedules' | 'secretHashKey'>;

/** Results and progress queries read for one page at once: a page costs one history read per closed run. */
const READS_AT_ONCE = 8;

export const scheduleRunNotFound = () => new ApiError(404, 'schedule_run_not_found', 'no run of this schedule with this id');

export type ScheduleRunPage = CursorPage<ScheduleRunSummary>;

/**
 * The runs of a schedule from Temporal visibility: every run of its workflow with `AccountId = _system` and
 * `JobKind = <name>`, which its Schedule (cron or trigger) and `POST /api/cron/<name>` both set. A sweep that continued
 * as new is one run (its open or last run). Paged by visibility's token, as `GET /api/jobs` is.
 */
export async function listScheduleRuns(
  deps: Deps,
  name: string,
  page: { limit: number; cursor?: string; status?: JobStatus },
): Promise<ScheduleRunPage> {
  entryOf(deps, name);
  const query = visibilityQuery(SYSTEM_ACCOUNT, { kind: name, status: page.status });
  const token = page.cursor ? decodeCursor(deps.secretHashKey, query, page.cursor) : undefined;
  const listed = await listRuns(deps.temporal, query, page.limit, token);
  const data = await inPool(listed.runs, READS_AT_ONCE, async (info) => {
    const { result: _result, ...summary } = scheduleRunOf(deps.temporal, name, info, await runOutcomeOf(deps.temporal, info));
    return summary;
  });
  return {
    data,
    limit: page.limit,
    next_cursor: listed.nextPageToken ? encodeCursor(deps.secretHashKey, query, listed.nextPageToken) : null,
    has_more: listed.nextPageToken !== null,
  };
}

/** One run of the schedule, current; an id that is no run of it (another sweep's, an account's job, none) is 404. */
export async function getScheduleRun(deps: Deps, name: string, id: string): Promise<ScheduleRun> {
  entryOf(deps, name);
  if (!isPlausibleWorkflowId(id)) throw scheduleRunNotFound();
  const run = await describeRun(deps.temporal, id);
  const attrs = run?.typedSearchAttributes;
  if (!run || attrs?.get(AccountIdKey) !== SYSTEM_ACCOUNT || attrs.get(JobKindKey) !== name) throw scheduleRunNotFound();
  return scheduleRunOf(deps.temporal, name, run, await runOutcomeOf(deps.temporal, run));
}
