import type { Knex } from '../../db/knex';
import { assertReferencesOwned } from './grounding';
import { resolveJourneyStage } from './journeyStage';
import type { ContentItem } from './representation';
import { holdOfWrite, sameCollection, type HoldChange } from '../schedule/hold';
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
  | 'target_keyword'
  | 'settings'
  | 'scheduled_publish_at'
  | 'schedule_executes'
  | 'deploy_target'
  | 'cms_link'
  | 'status'
  | 'published_at'
  | 'journey_id'
  | 'journey_stage'
> = {
  target_keyword: null,
  settings: {},
  scheduled_publish_at: null,
  schedule_executes: false,
  deploy_target: 'production',
  cms_link: null,
  status: 'draft',
  published_at: null,
  journey_id: null,
  journey_stage: null,
};

/**
 * The columns one create or update writes, after every check that can refuse it: references of the account
 * (400 invalid_reference), the journey stage (400), then the schedule rules (409 not_linked, 400 past), and what the
 * item's publish workflow must be told (`hold`; schedule_executes is set as if it accepted). Nothing is written
 * before this returns. `stagedItemId` is a draft site entry staged for this write (schedule/stage.ts).
 */
export async function columnsOfWrite(
  trx: Knex.Transaction,
  accountId: string,
  stored: typeof EMPTY | ContentRow,
  input: CreateInput | UpdateInput,
  precedence: KeywordPrecedence,
  now: Date,
  stagedItemId: string | null = null,
): Promise<{ columns: ContentColumns; hold: HoldChange }> {
  await assertReferencesOwned(trx, accountId, input);
  const journeyStage = await resolveJourneyStage(trx, accountId, stored, input);
  const hold = holdOfWrite(stored, input, now);
  const schedule = hold.scheduledPublishAt;

  const columns: ContentColumns = {};
  const record = columns as Record<string, unknown>;
  for (const key of PLAIN_COLUMNS) if (input[key] !== undefined) record[key] = input[key];
  if (journeyStage !== undefined) columns.journey_stage = journeyStage;
  if (input.cms_link !== undefined) columns.cms_link = cmsLinkColumn(stored.cms_link, input.cms_link, stagedItemId);
  else if (stagedItemId && stored.cms_link) columns.cms_link = JSON.stringify({ ...stored.cms_link, item_id: stagedItemId });
  if (schedule !== undefined) columns.scheduled_publish_at = schedule;
  if (hold.executes !== stored.schedule_executes) columns.schedule_executes = hold.executes;

  const keyword = resolveKeyword(stored, input, precedence);
  columns.target_keyword = keyword;
  columns.settings = JSON.stringify(mergeSettings(stored.settings, input.settings, keyword, now));

  // published_at records the first time the item reached status `published`; later status changes keep it.
  const status = input.status ?? stored.status;
  if (status === 'published' && stored.published_at === null) columns.published_at = now;
  const change = hold.change.kind === 'arm' && stagedItemId ? { ...hold.change, itemId: stagedItemId } : hold.change;
  return { columns, hold: change };
}

/**
 * A sent link without item_id keeps the entry the stored link has on the same collection (an editor that leaves
 * item_id out must not orphan a staged or published entry); null or another collection starts without one.
 */
function cmsLinkColumn(
  stored: ContentRow['cms_link'],
  sent: NonNullable<CreateInput['cms_link']> | null,
  staged: string | null,
): string | null {
  if (sent === null) return null;
  const kept = sent.item_id !== undefined ? sent.item_id : sameCollection(sent, stored) ? (stored?.item_id ?? null) : null;
  return JSON.stringify({ ...sent, item_id: staged ?? kept });
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
