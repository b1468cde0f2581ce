import { ApplicationFailure } from '@temporalio/common';
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { trackProgress } from './progress';
import { FORMS_PAGE_MAX, type FormsBackfillInput, type FormsBackfillResult } from './sitePlatformFormsBackfill.contract';

// A remote 429 on a GET waits up to a minute inside the client before it is reported, hence the long page timeout;
// the activity heartbeats meanwhile, so a page on a worker that died is retried after the heartbeat timeout.
const { importFormSubmissionsPage } = proxyActivities<Activities>({
  startToCloseTimeout: '3 minutes',
  heartbeatTimeout: '20 seconds',
  retry: { initialInterval: '2 seconds', maximumInterval: '30 seconds', maximumAttempts: 4 },
});

const MAX_REASONS = 10;

/**
 * Imports a site's historical form submissions into the forms ledger, one platform page per activity (each page
 * committed on its own, so a worker killed mid-run resumes at the page it was on and the ledger's idempotency key
 * absorbs a page done twice). Rows are historical: no workflow trigger, no notification.
 *
 * The rate limit (the local bucket or the platform's 429) on the FIRST page fails the job with `rate_limited` (429,
 * `retry_after_seconds` in the failure's details); on a later page the job ends `partial` with `retry_after_seconds`
 * and `next_offset`. Any other coded failure (forms_require_republish, missing_scopes, …) fails the job with its code.
 */
export async function sitePlatformFormsBackfill(input: FormsBackfillInput): Promise<FormsBackfillResult> {
  const pageSize = Math.min(Math.max(Math.trunc(input.pageSize ?? FORMS_PAGE_MAX), 1), FORMS_PAGE_MAX);
  const progress = trackProgress('importing', input.limit);
  const result: FormsBackfillResult = {
    site_id: input.siteId,
    form_id: input.formId ?? null,
    fetched: 0,
    imported: 0,
    already_present: 0,
    permanent: 0,
    permanent_reasons: [],
    partial: false,
    retry_after_seconds: null,
    next_offset: null,
    platform_total: null,
  };
  let offset = input.offset ?? 0;

  for (let first = true; result.fetched < input.limit; first = false) {
    const want = Math.min(pageSize, input.limit - result.fetched);
    const page = await importFormSubmissionsPage({
      accountId: input.accountId,
      projectId: input.projectId,
      connectionId: input.connectionId,
      siteId: input.siteId,
      formId: input.formId ?? null,
      offset,
      limit: want,
    });
    if (page.kind === 'rate_limited') {
      if (first) {
        throw ApplicationFailure.create({
          type: 'rate_limited',
          message: `the site platform rate limit was reached before the first page; retry after ${page.retryAfterSeconds}s`,
          nonRetryable: true,
          details: [
            {
              status: 429,
              retry_after_seconds: page.retryAfterSeconds,
              ...(page.upstreamStatus !== undefined ? { upstreamStatus: page.upstreamStatus } : {}),
            },
          ],
        });
      }
      progress.warn(`rate limited at offset ${offset}`);
      return { ...result, partial: true, retry_after_seconds: page.retryAfterSeconds, next_offset: offset };
    }
    result.fetched += page.fetched;
    result.imported += page.imported;
    result.already_present += page.alreadyPresent;
    result.permanent += page.permanent;
    for (const reason of page.permanentReasons) if (result.permanent_reasons.length < MAX_REASONS) result.permanent_reasons.push(reason);
    if (page.total !== null) result.platform_total = page.total;
    offset += page.fetched;
    progress.advance(page.fetched);
    const exhausted = page.fetched < want || (page.total !== null && offset >= page.total);
    if (exhausted) return result;
  }
  // The limit was reached: say where to continue when the platform listed more.
  return { ...result, next_offset: result.platform_total === null || offset < result.platform_total ? offset : null };
}
