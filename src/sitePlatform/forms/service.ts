import type { AppDeps } from '../../deps';
import { recordPlatformSubmission } from '../../forms/service';
import { ApiError } from '../../http/errors';
import { runJobRequest, type JobRequest } from '../../jobs/start/kit';
import type { StartAndWaitOutcome } from '../../temporal/startAndWait';
import {
  sitePlatformFormsBackfillContract,
  type FormsBackfillInput,
  type FormsBackfillResult,
} from '../../../workflows/sitePlatformFormsBackfill.contract';
import type { SitePlatformDeps } from '../connections/deps';
import { resolveCredentials } from '../connections/resolve';
import { runOperation } from '../operations/runner';

export interface FormsPageInput {
  accountId: string;
  projectId: string;
  connectionId: string;
  siteId: string;
  formId: string | null;
  offset: number;
  limit: number;
}

export type FormsPageResult =
  | {
      kind: 'page';
      fetched: number;
      imported: number;
      alreadyPresent: number;
      permanent: number;
      permanentReasons: string[];
      total: number | null;
    }
  /** `upstreamStatus` 429 when the platform refused the page, absent when the local budget did. */
  | { kind: 'rate_limited'; retryAfterSeconds: number; upstreamStatus?: number };

const asRecord = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/**
 * A listed submission (the reference's FormSubmission: `id`, `displayName`, `dateSubmitted`, `formResponse`) in the
 * shape of a `form_submission` delivery's payload, so the ledger reads both alike and a submission has one key
 * whichever way it arrived.
 */
export function deliveryShapeOf(listed: Record<string, unknown>, siteId: string): Record<string, unknown> {
  return {
    id: listed.id,
    name: listed.displayName,
    siteId: typeof listed.siteId === 'string' ? listed.siteId : siteId,
    data: asRecord(listed.formResponse),
    submittedAt: listed.dateSubmitted,
  };
}

/**
 * One page of the backfill: lists the site's (or one form's) submissions through the operation runner (the project's
 * connection, its scope gate and the connection's token bucket), then records each as a historical ledger row in one
 * transaction. The rate limit (local bucket or the platform's 429) is answered as a value, so the workflow decides
 * between `partial` and 429; every other failure is thrown as the coded ApiError it is.
 */
export async function importFormsPage(deps: SitePlatformDeps, input: FormsPageInput): Promise<FormsPageResult> {
  let listed: unknown;
  try {
    const { result } = await runOperation(deps, {
      accountId: input.accountId,
      projectId: input.projectId,
      method: 'GET',
      action: input.formId ? 'form_submission_list' : 'form_submission_list_by_site',
      params: { site_id: input.siteId, offset: input.offset, limit: input.limit, ...(input.formId ? { form_id: input.formId } : {}) },
      actor: async () => 'system:forms-backfill',
    });
    listed = result;
  } catch (err) {
    if (err instanceof ApiError && err.code === 'rate_limited') {
      const { retryAfterSeconds = 60, upstreamStatus } = err.extra;
      return { kind: 'rate_limited', retryAfterSeconds, ...(upstreamStatus !== undefined ? { upstreamStatus } : {}) };
    }
    throw err;
  }
  const body = asRecord(listed);
  const rows = Array.isArray(body.formSubmissions) ? body.formSubmissions.map(asRecord) : [];
  const total = asRecord(body.pagination).total;
  const counts = { fetched: rows.length, imported: 0, alreadyPresent: 0, permanent: 0, permanentReasons: [] as string[] };
  await deps.db.transaction(async (trx) => {
    for (const row of rows) {
      const outcome = await recordPlatformSubmission(trx, input.accountId, {
        connectionId: input.connectionId,
        siteId: input.siteId,
        payload: deliveryShapeOf(row, input.siteId),
        historical: true,
        projectId: input.projectId,
      });
      if (outcome.kind === 'permanent') {
        counts.permanent++;
        counts.permanentReasons.push(outcome.reason);
      } else if (outcome.created) counts.imported++;
      else counts.alreadyPresent++;
    }
  });
  return { kind: 'page', ...counts, total: typeof total === 'number' ? total : null };
}

export interface BackfillRequest extends JobRequest {
  accountId: string;
  projectId: string;
  limit: number;
  offset: number;
  formId: string | null;
}

const notConnected = () =>
  new ApiError(412, 'site_platform_not_connected', 'no site platform connection resolves for this project; connect first');
const siteNotBound = () =>
  new ApiError(409, 'project_site_not_bound', 'the project is bound to no platform site; bind one (PUT the project binding) first');

/**
 * Starts the backfill job for a project and waits for it as the request's wait says
 * (SITE_PLATFORM_FORMS_BACKFILL_WAIT_SECONDS at most; then the caller answers 202 with the job). The job id is
 * `site-platform-forms-backfill:<account>:<Idempotency-Key>` (the key hashed when it would not fit, see jobId), so a
 * retry with the same key attaches to the same run; a key sent with another request is 409 `idempotency_key_reused`.
 * A failed job answers the coded error it failed with, as the operation route answers it (`upstreamStatus`,
 * `retry_after_seconds` and the platform's code included: one mapping, src/clients/sitePlatform/errors.ts, carried
 * through the job by src/temporal/failures.ts); a first-page rate limit is 429 `rate_limited` with `retry_after_seconds`.
 */
export async function startFormsBackfill(deps: AppDeps, req: BackfillRequest): Promise<StartAndWaitOutcome<FormsBackfillResult>> {
  const creds = await resolveCredentials(deps, req.accountId, { projectId: req.projectId });
  if (!creds) throw notConnected();
  if (!creds.siteId) throw siteNotBound();
  const input: FormsBackfillInput = {
    accountId: req.accountId,
    projectId: req.projectId,
    connectionId: creds.connectionId,
    siteId: creds.siteId,
    limit: req.limit,
    offset: req.offset,
    formId: req.formId,
  };
  return runJobRequest(deps, req, {
    contract: sitePlatformFormsBackfillContract,
    accountId: req.accountId,
    args: [input],
    fingerprint: { projectId: req.projectId, limit: req.limit, offset: req.offset, formId: req.formId },
    searchAttributes: { ProjectId: req.projectId, ConnectionId: creds.connectionId },
  });
}
