import type { Knex } from '../../db/knex';
import type { ContentRow } from '../content/store';

/** What a publish at the time reads of the item: the schedule it holds and where it goes. */
export interface ScheduleRow {
  scheduled_publish_at: Date | null;
  schedule_executes: boolean;
  deploy_target: string;
  cms_link: ContentRow['cms_link'];
}

export async function findScheduleRow(db: Knex, accountId: string, contentId: string): Promise<ScheduleRow | undefined> {
  return db('content_items')
    .where({ account_id: accountId, id: contentId })
    .first('scheduled_publish_at', 'schedule_executes', 'deploy_target', 'cms_link');
}

/** The published stamp: published_at only the first time, any earlier failure cleared. */
const PUBLISHED = (db: Knex) => ({
  status: 'published',
  published_at: db.raw('coalesce(published_at, now())'),
  publish_failed_at: null,
  publish_error: null,
  updated_at: db.fn.now(),
});

/**
 * Stamps a scheduled item published, only while the row still holds that schedule (`at`, armed); clears the date.
 * Answers published_at, or undefined when the row no longer holds it (nothing written).
 */
export async function stampScheduledPublished(
  db: Knex,
  accountId: string,
  contentId: string,
  at: Date,
  entry: { cms_link?: string; site_entry_url?: string | null } = {},
): Promise<Date | undefined> {
  const [row] = await db('content_items')
    .where({ account_id: accountId, id: contentId, scheduled_publish_at: at, schedule_executes: true })
    .update({ ...PUBLISHED(db), ...entry, scheduled_publish_at: null, schedule_executes: false })
    .returning('published_at');
  return row?.published_at;
}

/** Stamps an item published to the platform from publish-to-site (its schedule, if any, stays as it is). */
export async function stampPublishedToSite(
  db: Knex,
  accountId: string,
  contentId: string,
  entry: { cms_link: string; site_entry_url: string | null },
): Promise<void> {
  await db('content_items')
    .where({ account_id: accountId, id: contentId })
    .update({ ...PUBLISHED(db), ...entry });
}

/** The last failed publish; a scheduled one also clears the date it held (only while the row still holds it). Answers the item's title, undefined when it is gone. */
export async function stampPublishFailure(
  db: Knex,
  accountId: string,
  contentId: string,
  error: Record<string, unknown>,
  heldAt?: Date,
): Promise<{ title: string } | undefined> {
  const columns: Record<string, unknown> = {
    publish_failed_at: db.fn.now(),
    publish_error: JSON.stringify(error),
    updated_at: db.fn.now(),
  };
  if (heldAt) {
    const holds = 'scheduled_publish_at = ? and schedule_executes';
    columns.scheduled_publish_at = db.raw(`case when ${holds} then null else scheduled_publish_at end`, [heldAt]);
    columns.schedule_executes = db.raw(`case when ${holds} then false else schedule_executes end`, [heldAt]);
  }
  const [row] = await db('content_items').where({ account_id: accountId, id: contentId }).update(columns).returning('title');
  return row;
}
