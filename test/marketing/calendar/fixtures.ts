import { harness } from '../../helpers/harness';
import { call } from '../../helpers/http';

export const DAY = 86_400_000;
export const daysFromNow = (days: number) => new Date(Date.now() + days * DAY);

export const LINK = JSON.stringify({ project_id: 'p1', collection_id: 'c1', item_id: null });

/** A content row inserted directly (the calendar reads stored rows; the content routes are another area's). */
export async function insertItem(accountId: string, fields: Record<string, unknown> = {}): Promise<string> {
  const [row] = await harness()
    .db('content_items')
    .insert({ account_id: accountId, title: 'Post', ...fields })
    .returning('id');
  return row.id;
}

export async function insertItems(accountId: string, rows: Array<Record<string, unknown>>): Promise<void> {
  await harness().db.batchInsert(
    'content_items',
    rows.map((r) => ({ account_id: accountId, title: 'Post', ...r })),
    500,
  );
}

export const calendar = (token: string, query = '', agent = false) =>
  call('GET', `/api${agent ? '/agent' : ''}/marketing/content/calendar${query}`, { token });
