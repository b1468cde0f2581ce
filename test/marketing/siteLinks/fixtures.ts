import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { harness } from '../../helpers/harness';
import { callAt, type CallResult } from '../../helpers/http';

export const SITE_LINKS = '/api/agent/marketing/content/site-links';

export const siteLinksQuery = (params: Record<string, string | number>) =>
  `${SITE_LINKS}?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString()}`;

/** A content item row as the API and a publish would leave it, inserted directly (its routes are tested elsewhere). */
export async function insertItem(
  accountId: string,
  fields: {
    projectId?: string;
    title?: string;
    slug?: string | null;
    status?: string;
    content_type?: string;
    canonical_url?: string | null;
    site_entry_url?: string | null;
    published_at?: Date | null;
  },
): Promise<string> {
  const { projectId, ...rest } = fields;
  const status = rest.status ?? 'published';
  const [row] = await harness()
    .db('content_items')
    .insert({
      account_id: accountId,
      title: rest.title ?? `Post ${randomBytes(3).toString('hex')}`,
      ...rest,
      status,
      published_at: rest.published_at !== undefined ? rest.published_at : status === 'published' ? new Date() : null,
      cms_link: projectId ? JSON.stringify({ project_id: projectId, collection_id: 'blog', item_id: null }) : null,
    })
    .returning('id');
  return row.id;
}

/** GET site-links on an app (the harness app by default) with an agent key; asserts the status. */
export async function getSiteLinks(
  baseUrl: string,
  token: string,
  params: Record<string, string | number>,
  status = 200,
): Promise<CallResult> {
  const res = await callAt(baseUrl, 'GET', siteLinksQuery(params), { token });
  assert.equal(res.status, status, res.text);
  return res;
}

export const codes = (res: CallResult) => (res.body.notes as Array<{ code: string }>).map((n) => n.code);
