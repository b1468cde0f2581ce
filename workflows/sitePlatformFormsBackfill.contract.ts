import { defineWorkflow } from './defineWorkflow';

/** The contract of the forms backfill job (sitePlatformFormsBackfill.ts). No I/O. */

/** The platform lists at most this many submissions per page. */
export const FORMS_PAGE_MAX = 100;
export const FORMS_BACKFILL_DEFAULT_LIMIT = 200;
export const FORMS_BACKFILL_MAX_LIMIT = 1000;

export interface FormsBackfillInput {
  accountId: string;
  projectId: string;
  /** The project's resolved connection and site, read when the route started the job. */
  connectionId: string;
  siteId: string;
  /** Submissions to list at most, 1..1000. */
  limit: number;
  /** Where in the platform's list to start (a previous answer's `next_offset`); default 0. */
  offset?: number;
  /** Only this form's submissions (`GET /forms/{form_id}/submissions`); the whole site's when absent. */
  formId?: string | null;
  /** Submissions per platform page, 1..100 (default 100); tests page smaller. */
  pageSize?: number;
}

export interface FormsBackfillResult {
  site_id: string;
  form_id: string | null;
  /** Submissions the platform listed in this run. */
  fetched: number;
  /** New ledger rows (historical: no workflow, no notification). */
  imported: number;
  /** Submissions the ledger already held under the same idempotency key (delivered or imported before). */
  already_present: number;
  /** Submissions with no id, no name and no timestamp: reported here, never retried. */
  permanent: number;
  /** The first few reasons of those (at most 10). */
  permanent_reasons: string[];
  /** True when the rate limit stopped the run on a later page; run again after `retry_after_seconds` from `next_offset`. */
  partial: boolean;
  retry_after_seconds: number | null;
  /** Where the next run continues when more submissions are listed than this one took (limit or rate limit); else null. */
  next_offset: number | null;
  /** The platform's total for the listing, when it reported one. */
  platform_total: number | null;
}

export const sitePlatformFormsBackfillContract = defineWorkflow<[FormsBackfillInput], FormsBackfillResult>(
  'sitePlatformFormsBackfill',
  'site-platform-forms-backfill',
);
