import type { Knex } from '../db/knex';

/**
 * How many content items of the account link to the project through `cms_link`. A jsonb link cannot carry a foreign
 * key, so DELETE asks here before removing the project. This is the one read of the content table outside marketing;
 * it moves behind a marketing-service function once that area offers one.
 */
export async function contentItemsLinkedTo(db: Knex, accountId: string, projectId: string): Promise<number> {
  const [{ count }] = await db('content_items')
    .where({ account_id: accountId })
    .whereRaw(`cms_link->>'project_id' = ?`, [projectId])
    .count<{ count: string }[]>({ count: '*' });
  return Number(count);
}
