import { z } from 'zod';
import type { Knex } from '../../db/knex';
import { listEnvelope, offsetOf, type Page } from '../../http/pagination';
import { actorSchema } from '../actor';
import { contentItemSchema } from './contentItemJson';
import { getContent } from './service';
import { listVersions, type VersionRow } from './versionStore';

export const versionSchema = z
  .object({
    id: z.string(),
    content_id: z.string(),
    version: z.number().int().describe('1 for the create, then one more per change.'),
    changed_fields: z.array(z.string()).describe('Item fields that this change set (on version 1: the fields sent on create).'),
    actor: actorSchema.describe('Who made the change: a user (dashboard), an agent key, or the system (scheduled jobs).'),
    created_at: z.string(),
    snapshot: contentItemSchema.describe('The item as the API returned it right after this change.'),
  })
  .meta({ id: 'ContentVersion' });

export type ContentVersion = z.output<typeof versionSchema>;

export function toVersion(row: VersionRow): ContentVersion {
  return {
    id: row.id,
    content_id: row.content_id,
    version: row.version,
    changed_fields: row.changed_fields,
    actor: { type: row.actor_type, id: row.actor_id },
    created_at: row.created_at.toISOString(),
    snapshot: row.snapshot,
  };
}

/** Versions of one item of the account, newest first; 404 `content_not_found` like the item routes. */
export async function contentVersions(db: Knex, accountId: string, contentId: string, page: Page) {
  await getContent(db, accountId, contentId);
  const { rows, total } = await listVersions(db, accountId, contentId, { limit: page.limit, offset: offsetOf(page) });
  return listEnvelope(rows.map(toVersion), total, page);
}
