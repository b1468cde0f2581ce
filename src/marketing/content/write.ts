import type { Knex } from '../../db/knex';
import { assertReferencesOwned } from './grounding';
import { resolveJourneyStage } from './journeyStage';
import type { ContentItem } from './contentItemJson';
import { holdOfWrite, sameCollection, type HoldChange } from '../schedule/hold';
import { createBody, type CreateInput, type UpdateInput } from './schemas';
import { mergeSettings, resolveKeyword, type KeywordPrecedence } from './settings';
import type { ContentColumns, ContentRow } from './store';

/** Write fields that columnsOfWrite works out itself; every other field of the write schema is a plain column. */
const COMPUTED = [
  'journey_stage',
  'target_keyword',
  'settings',
  'cms_link',
  'scheduled_publish_at',
  'cancel_scheduled_publish',
] as const satisfies ReadonlyArray<keyof CreateInput>;
type PlainColumn = Exclude<keyof CreateInput, (typeof COMPUTED)[number]>;

/** Fields a write copies as sent (absent = leave) into the column of the same name. */
const PLAIN_COLUMNS = Object.keys(createBody.shape).filter((key): key is PlainColumn => !(COMPUTED as readonly string[]).includes(key));

/** The plain columns a write sends; tsc checks that each is a column of the row, of a type the column takes. */
function plainColumns(input: CreateInput | UpdateInput): Partial<Pick<ContentColumns, PlainColumn>> {
  return sentOf(input, PLAIN_COLUMNS);
}

function sentOf<T, K extends keyof T>(input: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const sent: Partial<Pick<T, K>> = {};
  for (const key of keys) if (input[key] !== undefined) sent[key] = input[key];
  return sent;
}

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

  const columns: ContentColumns = plainColumns(input);
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
