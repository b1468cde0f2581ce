import type { Config } from '../../config';
import type { Knex } from '../../db/knex';
import { ApiError } from '../../http/errors';
import type { Logger } from '../../logger';
import { processNewSubmission, submissionIdOf } from '../../forms/service';
import { SITE_PLATFORM_TRIGGERS, writeTriggers, type TriggerInput } from '../../triggers/outbox';
import { findOwnProject } from '../../projects/service';
import { publishedAtOfDelivery, recordPublished } from '../connections/lastPublished';
import { pickConnection, resolveCredentials } from '../connections/resolve';
import { clientFor } from '../operations/clients';
import { markSnapshotsStale } from '../operations/cmsSnapshots';
import { collectionIdOf } from './events';
import { markFannedOut, type StoredEvent } from './eventsStore';
import { bindingsOfSite } from './fanOutStore';
import { markPageDeleted, markUnlistedDeleted, upsertPages, type IndexedPage } from './pageIndexStore';

/** doc2 Limits "fan-out": projects one delivery reaches. */
export const FAN_OUT_MAX_PROJECTS = 50;
/** Bindings read per site to find the bound projects (bindings whose resolution reaches no live connection are skipped). */
const BINDINGS_SCANNED = 500;
/** Pages one site_publish re-index lists (100 per platform page). */
export const REINDEX_MAX_PAGES = 5_000;
const PAGE_LIMIT = 100;

export type BindingKind = 'external' | 'cms_only';

export interface ReachedProject {
  project_id: string;
  binding: BindingKind;
}

/** What the fan-out of one event did; kept on the event row (`fan_out`). */
export interface FanOutRecord {
  trigger_type: string;
  projects: ReachedProject[];
  /** Projects bound to the site beyond the cap, not reached. */
  over_cap: number;
  snapshots_marked_stale?: boolean;
  pages?: { indexed: number; deleted: number } | { error: string };
  submission?: string;
  /** site_publish: the publish time the account's site row was stamped with (the newest stamp wins). */
  last_published_at?: string;
  error?: string;
}

export interface FanOutDeps {
  db: Knex;
  config: Config;
  logger: Logger;
}

const COLLECTION_TRIGGERS = new Set([
  'collection_item_created',
  'collection_item_changed',
  'collection_item_deleted',
  'collection_item_published',
  'collection_item_unpublished',
]);
const PAGE_TRIGGERS = new Set(['page_created', 'page_metadata_updated', 'page_deleted']);

const connectionDeps = (deps: FanOutDeps) => ({ ...deps, secretHashKey: deps.config.SECRET_HASH_KEY ?? '' });

/**
 * The projects of the account bound to the site, at most FAN_OUT_MAX_PROJECTS, oldest binding first: a binding that
 * names the site (not `disabled`) whose resolution (override, then account default — connections/resolve.ts) reaches a
 * live connection holding the site. A `platform_hosted` project is an external binding (its pages are indexed), a
 * `service_hosted` one a cms_only binding (snapshots only). `over_cap` counts the bound projects left out.
 */
export async function boundProjects(
  deps: FanOutDeps,
  accountId: string,
  siteId: string,
): Promise<{ projects: ReachedProject[]; overCap: number }> {
  const projects: ReachedProject[] = [];
  let overCap = 0;
  for (const binding of await bindingsOfSite(deps.db, accountId, siteId, BINDINGS_SCANNED)) {
    if (!(await pickConnection(connectionDeps(deps), accountId, binding.project_id, siteId))) continue;
    const project = await findOwnProject(deps.db, accountId, binding.project_id);
    if (!project) continue;
    if (projects.length >= FAN_OUT_MAX_PROJECTS) {
      overCap++;
      continue;
    }
    projects.push({ project_id: project.id, binding: project.kind === 'platform_hosted' ? 'external' : 'cms_only' });
  }
  return { projects, overCap };
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const time = (v: unknown): Date | null => {
  const at = typeof v === 'string' ? new Date(v) : null;
  return at && !Number.isNaN(at.getTime()) ? at : null;
};

/** site_publish: every page of the site, listed from the platform with the account's resolved credentials. */
async function reindexSite(deps: FanOutDeps, accountId: string, siteId: string): Promise<NonNullable<FanOutRecord['pages']>> {
  const credentials = await resolveCredentials(connectionDeps(deps), accountId, { siteId });
  // No live connection of the account reaches the site any more (disconnected since the delivery): nothing to list.
  if (!credentials) return { error: 'no_live_connection' };
  const client = clientFor(deps.config, credentials.connectionId, credentials.token);
  const pages: IndexedPage[] = [];
  for (let offset = 0; offset < REINDEX_MAX_PAGES; offset += PAGE_LIMIT) {
    const res = await client.request<{ pages?: Array<Record<string, unknown>>; pagination?: { total?: number } }>({
      method: 'GET',
      base: 'v2',
      path: `/sites/${encodeURIComponent(siteId)}/pages`,
      query: { offset, limit: PAGE_LIMIT },
    });
    const batch = res.body.pages ?? [];
    for (const p of batch) {
      const pageId = text(p.id);
      if (pageId) pages.push({ pageId, title: text(p.title), publishedPath: text(p.publishedPath), pageUpdatedAt: time(p.lastUpdated) });
    }
    const total = res.body.pagination?.total;
    if (batch.length < PAGE_LIMIT || (typeof total === 'number' && offset + PAGE_LIMIT >= total)) break;
  }
  await upsertPages(deps.db, accountId, siteId, pages);
  const complete = pages.length < REINDEX_MAX_PAGES;
  const deleted = complete
    ? await markUnlistedDeleted(
        deps.db,
        accountId,
        siteId,
        pages.map((p) => p.pageId),
      )
    : 0;
  return { indexed: pages.length, deleted };
}

/** page_created / page_metadata_updated / page_deleted: the page the payload names (pageId, pageTitle, publishedPath). */
async function reindexPage(deps: FanOutDeps, accountId: string, event: StoredEvent): Promise<{ indexed: number; deleted: number }> {
  const pageId = text(event.payload.pageId);
  if (!pageId) return { indexed: 0, deleted: 0 };
  const page = { pageId, title: text(event.payload.pageTitle), publishedPath: text(event.payload.publishedPath) };
  if (event.triggerType === 'page_deleted') {
    await markPageDeleted(deps.db, accountId, event.siteId, page, time(event.payload.deletedOn));
    return { indexed: 0, deleted: 1 };
  }
  const updatedAt = time(event.payload.lastUpdated) ?? time(event.payload.createdOn);
  await upsertPages(deps.db, accountId, event.siteId, [{ ...page, pageUpdatedAt: updatedAt }], true);
  return { indexed: 1, deleted: 0 };
}

/** The fan-out of one event to the projects bound to its site. Platform refusals are recorded; database failures throw. */
async function fanOutEvent(
  deps: FanOutDeps,
  accountId: string,
  event: StoredEvent,
  bound: { projects: ReachedProject[]; overCap: number },
  staleDone: Set<string>,
): Promise<FanOutRecord> {
  const record: FanOutRecord = { trigger_type: event.triggerType, projects: bound.projects, over_cap: bound.overCap };
  if (bound.overCap > 0) {
    deps.logger.warn(
      { accountId, siteId: event.siteId, seq: event.seq, reached: bound.projects.length, overCap: bound.overCap },
      'site platform event reached the fan-out cap; the remaining bound projects were not reached',
    );
  }
  // Snapshots are per site, shared by every binding (and the account-level reads): a CMS change makes them stale.
  // Marked once per collection (or site) per batch: the marks of a batch's events are the same.
  if (COLLECTION_TRIGGERS.has(event.triggerType) || event.triggerType === 'site_publish') {
    const collectionId = collectionIdOf(event.payload);
    const key = collectionId ?? '';
    if (!staleDone.has(key)) {
      await markSnapshotsStale(deps.db, event.siteId, collectionId);
      staleDone.add(key);
    }
    record.snapshots_marked_stale = true;
  }
  if (event.triggerType === 'site_publish') {
    const at = publishedAtOfDelivery(event.payload);
    if (at) record.last_published_at = (await recordPublished(deps.db, accountId, event.siteId, at)).toISOString();
  }
  const external = bound.projects.some((p) => p.binding === 'external');
  if (external && (event.triggerType === 'site_publish' || PAGE_TRIGGERS.has(event.triggerType))) {
    try {
      record.pages =
        event.triggerType === 'site_publish' ? await reindexSite(deps, accountId, event.siteId) : await reindexPage(deps, accountId, event);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      deps.logger.warn({ accountId, siteId: event.siteId, seq: event.seq, code: err.code }, 'site page re-index failed');
      record.pages = { error: err.code };
    }
  }
  if (event.triggerType === 'form_submission') {
    const submissionId = submissionIdOf(event.payload);
    record.submission = submissionId ? (await processNewSubmission(deps, accountId, submissionId)).kind : 'permanent';
  }
  return record;
}

/**
 * Fans out these events of one (account, site) in seq order and stamps their `fanned_out_at` with their records (one
 * statement), until `stop()` says so (checked after each event): answers the records of the events fanned out, a
 * prefix of `events`. The bound projects are read once per call.
 */
export async function fanOutEvents(
  deps: FanOutDeps,
  accountId: string,
  siteId: string,
  events: StoredEvent[],
  stop: () => boolean = () => false,
): Promise<FanOutRecord[]> {
  if (events.length === 0) return [];
  const bound = await boundProjects(deps, accountId, siteId);
  const staleDone = new Set<string>();
  const done: Array<{ seq: number; fanOut: Record<string, unknown> }> = [];
  const records: FanOutRecord[] = [];
  try {
    for (const event of events) {
      const record = await fanOutEvent(deps, accountId, event, bound, staleDone);
      done.push({ seq: event.seq, fanOut: record as unknown as Record<string, unknown> });
      records.push(record);
      if (stop()) break;
    }
  } finally {
    // What was fanned out before a failure is stamped (each step is idempotent, so a retry redoing one is harmless),
    // with the workflow triggers of those events in the same transaction: a stamped event has its trigger.
    await deps.db.transaction(async (trx) => {
      await markFannedOut(trx, accountId, done);
      await writeTriggers(
        trx,
        accountId,
        events.slice(0, records.length).flatMap((e, i) => triggerOf(e, records[i])),
      );
    });
  }
  return records;
}

/**
 * The workflow trigger a delivery feeds (form submissions fire theirs from the ledger, once per new row). The dedup
 * key is the event's, so a retried batch writes nothing new.
 */
function triggerOf(event: StoredEvent, record: FanOutRecord): TriggerInput[] {
  const trigger = SITE_PLATFORM_TRIGGERS[event.triggerType as keyof typeof SITE_PLATFORM_TRIGGERS];
  if (!trigger) return [];
  return [
    {
      trigger,
      dedupKey: `site:${event.siteId}:${event.eventId}`,
      payload: { site_id: event.siteId, project_ids: record.projects.map((p) => p.project_id), event: event.payload },
    },
  ];
}

/** An event whose fan-out kept failing after every retry: stamped with the failure, so the site's stream moves on. */
export async function recordFanOutFailure(deps: FanOutDeps, accountId: string, event: StoredEvent, code: string): Promise<void> {
  await markFannedOut(deps.db, accountId, [
    { seq: event.seq, fanOut: { trigger_type: event.triggerType, projects: [], over_cap: 0, error: code } },
  ]);
}
