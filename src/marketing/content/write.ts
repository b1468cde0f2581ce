import type { Knex } from '../../db/knex';
import { assertReferencesOwned } from './grounding';
import { resolveJourneyStage } from './journeyStage';
import type { ContentItem } from './representation';
import { resolveSchedule } from './schedule';
import type { CreateInput, UpdateInput } from './schemas';
import { mergeSettings, resolveKeyword, type KeywordPrecedence } from './settings';
import type { ContentColumns, ContentRow } from './store';

/** Columns a write copies as sent (absent = leave). */
const PLAIN_COLUMNS = [
  'title',
  'slug',
  'body',
  'excerpt',
  'status',
  'content_type',
  'category_id',
  'tags',
  'avatar_id',
  'journey_id',
  'before_after_grid_id',
  'meta_title',
  'meta_description',
  'featured_image_url',
  'featured_image_alt',
  'meta_keywords',
  'canonical_url',
  'deploy_target',
] as const;

const EMPTY: Pick<
  ContentRow,
  'target_keyword' | 'settings' | 'scheduled_publish_at' | 'cms_link' | 'status' | 'published_at' | 'journey_id' | 'journey_stage'
> = {
  target_keyword: null,
  settings: {},
  scheduled_publish_at: null,
  cms_link: null,
  status: 'draft',
  published_at: null,
  journey_id: null,
  journey_stage: null,
};

/**
 * The columns one create or update writes, after every check that can refuse it: references of the account
 * (400 invalid_reference), the journey stage (400), then the schedule rules (409 not_linked, 400 past). Nothing is
 * written before this returns.
 */
export async function columnsOfWrite(
  trx: Knex.Transaction,
  accountId: string,
  stored: typeof EMPTY | ContentRow,
  input: CreateInput | UpdateInput,
  precedence: KeywordPrecedence,
  now: Date,
): Promise<ContentColumns> {
  await assertReferencesOwned(trx, accountId, input);
  const journeyStage = await resolveJourneyStage(trx, accountId, stored, input);
  const schedule = resolveSchedule(stored, input, now);

  const columns: ContentColumns = {};
  const record = columns as Record<string, unknown>;
  for (const key of PLAIN_COLUMNS) if (input[key] !== undefined) record[key] = input[key];
  if (journeyStage !== undefined) columns.journey_stage = journeyStage;
  if (input.cms_link !== undefined) {
    columns.cms_link = input.cms_link === null ? null : JSON.stringify({ ...input.cms_link, item_id: input.cms_link.item_id ?? null });
  }
  if (schedule !== undefined) columns.scheduled_publish_at = schedule;

  const keyword = resolveKeyword(stored, input, precedence);
  columns.target_keyword = keyword;
  columns.settings = JSON.stringify(mergeSettings(stored.settings, input.settings, keyword, now));

  // published_at records the first time the item reached status `published`; later status changes keep it.
  const status = input.status ?? stored.status;
  if (status === 'published' && stored.published_at === null) columns.published_at = now;
  return columns;
}

export const NEW_ITEM = EMPTY;

/** Item fields that differ between two snapshots (derived and bookkeeping members left out). */
export function changedFields(before: ContentItem, after: ContentItem): string[] {
  const skip = new Set(['updated_at', 'created_at', 'customer_avatar', 'customer_journey', 'before_after_grid']);
  return (Object.keys(after) as Array<keyof ContentItem>).filter(
    (key) => !skip.has(key) && stableJson(before[key]) !== stableJson(after[key]),
  );
}

/** Fields a create set: those it sent (version 1's changed_fields). */
export function sentFields(input: CreateInput): string[] {
  return Object.keys(input)
    .filter((k) => k !== 'cancel_scheduled_publish' && (input as Record<string, unknown>)[k] !== undefined)
    .sort();
}

function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}
