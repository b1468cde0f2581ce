import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { z } from 'zod';
import type { TemporalDeps } from '../deps';
import { cursorPageSchema } from '../http/pagination';
import { jobPath } from '../temporal/jobIds';
import { JOB_STATUSES, JobProgressSchema } from '../temporal/jobJson';
import { jobStatusOf, temporalUiLink, type RunInfo, type RunOutcome } from '../temporal/jobView';

/** Temporal sets it on every run a Schedule starts (its own and triggered actions), never on a run started by hand. */
const ScheduledByKey = defineSearchAttributeKey('TemporalScheduledById', SearchAttributeType.KEYWORD);

/** The memo key where a hand-started run keeps the options it was given (src/cron/service.ts writes it). */
export const RUN_NOW_MEMO_KEY = 'runNowOptions';

const AccountCountsSchema = z
  .object({
    account_id: z.string(),
    total: z.number().int().describe('Entries the result names for this account.'),
    by_status: z.record(z.string(), z.number().int()).describe('Those entries by their status (e.g. `rejected`, `reregistered`).'),
  })
  .describe("One account's share of a sweep's result.");

const runFields = {
  id: z.string().describe('The run id, which is also its workflow id: `cron:<name>-<scheduled time>` or `cron:<name>:<uuid>` (by hand).'),
  run_id: z.string().describe('The Temporal run shown: the latest of the chain when the sweep continued as new.'),
  schedule: z.string(),
  status: z.enum(JOB_STATUSES),
  started_by: z
    .enum(['schedule', 'run_now'])
    .describe('`schedule`: its cron or `POST /api/schedules/{name}/trigger`; `run_now`: `POST /api/cron/{name}`.'),
  options: z
    .record(z.string(), z.union([z.string(), z.number()]))
    .describe('The options a hand-started run was given (`account_id`, `disconnect_cap`); {} for scheduled runs.'),
  started_at: z.string().describe('ISO 8601; when the shown run started (a sweep that continued as new: its latest run).'),
  closed_at: z.string().nullable().describe('ISO 8601; null while running.'),
  partial: z
    .boolean()
    .nullable()
    .describe(
      "The result's `partial`: true when the budget ran out first (the next run carries on); null while running or for a sweep without one.",
    ),
  accounts: z
    .array(AccountCountsSchema)
    .describe(
      'Per account, the entries the result names (its `connections` or `results`), by account id; [] while running or when it names none.',
    ),
  accounts_truncated: z
    .boolean()
    .describe("The result names only its first 200 entries: counts past them are in the result's totals only."),
  progress: JobProgressSchema.nullable().describe('Live while running (null when the run does not answer within 1.5 s); null once closed.'),
  error: z.object({ code: z.string(), message: z.string() }).nullable().describe('When failed: its code and message; null otherwise.'),
  links: z.object({
    self: z.string().describe('`/api/schedules/{name}/runs/{id}`'),
    temporal_ui: z.string().nullable().describe('This run in the Temporal UI; null when no UI URL is configured.'),
  }),
};

export const ScheduleRunSummarySchema = z
  .object(runFields)
  .meta({ id: 'ScheduleRunSummary', description: 'A run of a scheduled sweep, as listed.' });
export const ScheduleRunSchema = z
  .object({ ...runFields, result: z.unknown().describe("The sweep's result once completed (its summary); null otherwise.") })
  .meta({ id: 'ScheduleRun', description: 'A run of a scheduled sweep: status, live progress or result, per-account counts.' });
export const ScheduleRunListSchema = cursorPageSchema(ScheduleRunSummarySchema, 'ScheduleRunList');

export type ScheduleRun = z.infer<typeof ScheduleRunSchema>;
export type ScheduleRunSummary = z.infer<typeof ScheduleRunSummarySchema>;
type AccountCounts = z.infer<typeof AccountCountsSchema>;

export const scheduleRunPath = (name: string, id: string) => jobPath(id, `/api/schedules/${name}/runs`);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sweeps name their entries in `connections` (connection checks) or `results` (per shop, per project), each with `account_id` and `status`. */
function accountCountsOf(result: unknown): { accounts: AccountCounts[]; truncated: boolean } {
  if (!isRecord(result)) return { accounts: [], truncated: false };
  const entries = [result.connections, result.results].find(Array.isArray) ?? [];
  const byAccount = new Map<string, AccountCounts>();
  for (const entry of entries) {
    if (!isRecord(entry) || typeof entry.account_id !== 'string') continue;
    const counts = byAccount.get(entry.account_id) ?? { account_id: entry.account_id, total: 0, by_status: {} };
    const status = typeof entry.status === 'string' ? entry.status : 'unknown';
    counts.total++;
    counts.by_status[status] = (counts.by_status[status] ?? 0) + 1;
    byAccount.set(entry.account_id, counts);
  }
  const accounts = [...byAccount.values()].sort((a, b) => (a.account_id < b.account_id ? -1 : 1));
  return { accounts, truncated: result.connections_truncated === true || result.results_truncated === true };
}

function optionsOf(memo: Record<string, unknown> | undefined): Record<string, string | number> {
  const raw = memo?.[RUN_NOW_MEMO_KEY];
  if (!isRecord(raw)) return {};
  return Object.fromEntries(
    Object.entries(raw).filter((entry): entry is [string, string | number] => ['string', 'number'].includes(typeof entry[1])),
  );
}

/** A run as the operators' routes show it, from its visibility row (or description) and its outcome. */
export function scheduleRunOf(temporal: TemporalDeps, name: string, info: RunInfo, outcome: RunOutcome): ScheduleRun {
  const { accounts, truncated } = accountCountsOf(outcome.result);
  return {
    id: info.workflowId,
    run_id: info.runId,
    schedule: name,
    status: jobStatusOf(info),
    started_by: info.typedSearchAttributes.get(ScheduledByKey) ? 'schedule' : 'run_now',
    options: optionsOf(info.memo),
    started_at: info.startTime.toISOString(),
    closed_at: info.closeTime?.toISOString() ?? null,
    partial: isRecord(outcome.result) && typeof outcome.result.partial === 'boolean' ? outcome.result.partial : null,
    accounts,
    accounts_truncated: truncated,
    progress: outcome.progress,
    error: outcome.error,
    links: { self: scheduleRunPath(name, info.workflowId), temporal_ui: temporalUiLink(temporal, info.workflowId, info.runId) },
    result: outcome.result ?? null,
  };
}
