import type { Knex } from '../../db/knex';

export type CalendarKind = 'scheduled' | 'published' | 'failed' | 'recorded_only';

export interface CalendarEntryRow {
  content_id: string;
  title: string;
  kind: CalendarKind;
  date: Date;
  executes: boolean;
  status: string;
  content_type: string;
}

/**
 * A stored schedule executes exactly when the item's content-publish workflow holds it: schedule_executes is set by
 * the write the workflow accepted and cleared when it publishes, fails or is cancelled. Any other date (deploy_target
 * `none`, no link, or a date stored before scheduled publishing existed) is recorded only.
 */
const EXECUTES = 'schedule_executes';

const LEGS: Array<{ column: string; kind: string; executes: string }> = [
  { column: 'scheduled_publish_at', kind: `case when ${EXECUTES} then 'scheduled' else 'recorded_only' end`, executes: EXECUTES },
  { column: 'published_at', kind: `'published'`, executes: 'true' },
  { column: 'publish_failed_at', kind: `'failed'`, executes: 'true' },
];

/** Entries dated inside [from, to], oldest first, at most `limit`. */
export async function listCalendarEntries(db: Knex, accountId: string, from: Date, to: Date, limit: number): Promise<CalendarEntryRow[]> {
  const [first, ...rest] = LEGS.map(({ column, kind, executes }) =>
    db('content_items')
      .where('account_id', accountId)
      .whereBetween(column, [from, to])
      .select(
        'id as content_id',
        'title',
        'status',
        'content_type',
        db.raw(`${kind} as kind`),
        `${column} as date`,
        db.raw(`${executes} as executes`),
      ),
  );
  return db
    .select('*')
    .from(first.unionAll(rest, true).as('e'))
    .orderBy([{ column: 'date' }, { column: 'content_id' }, { column: 'kind' }])
    .limit(limit);
}

export interface CadenceRow {
  published_last_30_days: number;
  published_last_90_days: number;
  scheduled_next_30_days: number;
  recorded_only_next_30_days: number;
  failed_last_30_days: number;
  last_published_at: Date | null;
  next_scheduled_at: Date | null;
}

export interface CadenceBounds {
  now: Date;
  back30: Date;
  back90: Date;
  ahead30: Date;
}

/** Account-wide publishing counts around `now`, whatever window the calendar shows. */
export async function readCadence(db: Knex, accountId: string, b: CadenceBounds): Promise<CadenceRow> {
  const row = await db('content_items')
    .where('account_id', accountId)
    .first(
      db.raw('count(*) filter (where published_at > ? and published_at <= ?)::int as published_last_30_days', [b.back30, b.now]),
      db.raw('count(*) filter (where published_at > ? and published_at <= ?)::int as published_last_90_days', [b.back90, b.now]),
      db.raw(
        `count(*) filter (where scheduled_publish_at > ? and scheduled_publish_at <= ? and ${EXECUTES})::int as scheduled_next_30_days`,
        [b.now, b.ahead30],
      ),
      db.raw(
        `count(*) filter (where scheduled_publish_at > ? and scheduled_publish_at <= ? and not ${EXECUTES})::int as recorded_only_next_30_days`,
        [b.now, b.ahead30],
      ),
      db.raw('count(*) filter (where publish_failed_at > ? and publish_failed_at <= ?)::int as failed_last_30_days', [b.back30, b.now]),
      db.raw('max(published_at) filter (where published_at <= ?) as last_published_at', [b.now]),
      db.raw(`min(scheduled_publish_at) filter (where scheduled_publish_at > ? and ${EXECUTES}) as next_scheduled_at`, [b.now]),
    );
  return row as CadenceRow;
}
