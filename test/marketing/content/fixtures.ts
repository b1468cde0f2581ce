import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { call } from '../../helpers/http';
import { harness } from '../../helpers/harness';

export const MISSING_ID = '00000000-0000-4000-8000-000000000000';

const suffix = () => randomBytes(3).toString('hex');

/** Grounding rows inserted directly: their CRUD routes are another area's. */
export async function insertAvatar(accountId: string, name = `Avatar ${suffix()}`): Promise<{ id: string; name: string }> {
  const [row] = await harness().db('customer_avatars').insert({ account_id: accountId, name }).returning(['id', 'name']);
  return row;
}

export async function insertJourney(accountId: string, name = `Journey ${suffix()}`): Promise<{ id: string; name: string }> {
  const stages = JSON.stringify([{ name: 'Awareness' }, { name: 'Decision' }]);
  const [row] = await harness().db('customer_journeys').insert({ account_id: accountId, name, stages }).returning(['id', 'name']);
  return row;
}

export async function insertGrid(accountId: string, name = `Grid ${suffix()}`): Promise<{ id: string; name: string }> {
  const [row] = await harness().db('before_after_grids').insert({ account_id: accountId, name }).returning(['id', 'name']);
  return row;
}

export async function insertCategory(accountId: string, name = `Category ${suffix()}`): Promise<{ id: string; name: string }> {
  const [row] = await harness()
    .db('marketing_categories')
    .insert({ account_id: accountId, name, slug: name.toLowerCase().replace(/\W+/g, '-') })
    .returning(['id', 'name']);
  return row;
}

/** Creates an item through the dashboard route and returns it. */
export async function createItem(token: string, body: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/marketing/content', { token, body: { title: `Post ${suffix()}`, ...body } });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

/** Rows of the account's items and of their versions, to prove a refused write wrote nothing. */
export async function rowCounts(accountId: string): Promise<{ items: number; versions: number }> {
  const { db } = harness();
  const [items] = await db('content_items').where({ account_id: accountId }).count<{ count: number }[]>({ count: '*' });
  const [versions] = await db('content_versions').where({ account_id: accountId }).count<{ count: number }[]>({ count: '*' });
  return { items: Number(items.count), versions: Number(versions.count) };
}

/** The stored row as Postgres holds it. */
export async function storedRow(id: string) {
  return harness().db('content_items').where({ id }).first();
}

/** Asserts a 400 that names `path` among its failing fields. */
export function assertFieldError(res: { status: number; body: any; text: string }, path: string, code = 'validation_failed') {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.code, code, res.text);
  assert.ok(
    res.body.errors?.some((e: { path: string }) => e.path === path),
    `expected an error on ${path}: ${res.text}`,
  );
}

/** A valid distribution plan of `rows` rows. */
export function plan(rows = 2, extra: Record<string, unknown> = {}) {
  const channels = Array.from({ length: rows }, (_, i) => ({
    channel: ['email_digest', 'social', 'community', 'partner', 'outreach', 'paid'][i % 6],
    format: 'post',
    status: 'planned',
    ...(i === 0 ? { link: 'social_post:abc123', scheduled_for: '2027-01-05', note: 'first' } : {}),
  }));
  return { owned_first: true, channels, written_at: '2026-11-01T10:00:00.000Z', ...extra };
}

export const future = (days = 3) => new Date(Date.now() + days * 86_400_000).toISOString();
/** A well-formed cms_link for shape checks; it names no project of any account, so a write with it is 400. */
export const cmsLink = { project_id: '11111111-1111-4111-8111-111111111111', collection_id: 'blog' };
