import assert from 'node:assert/strict';
import { world, type World } from './fixtures';

interface Item {
  id: string;
  isDraft: boolean;
  lastPublished: string | null;
  fieldData: { name: string; slug: string };
}
interface ItemList {
  items: Item[];
  pagination: { limit: number; offset: number; total: number };
}

describe('site platform simulator: CMS', () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
  });
  afterEach(() => w.sim.stop());

  it('collections list per site, and get shows the field definitions', async () => {
    const list = (await (await w.api(`/sites/${w.site.id}/collections`)).json()) as { collections: Array<{ id: string; slug: string }> };
    assert.deepEqual(
      list.collections.map((c) => [c.id, c.slug]),
      [[w.blog.id, 'blog-posts']],
    );
    const one = (await (await w.api(`/collections/${w.blog.id}`)).json()) as { fields: Array<{ slug: string }> };
    assert.deepEqual(
      one.fields.map((f) => f.slug),
      ['name', 'slug', 'summary'],
    );
  });

  it('items paginate by offset and limit with pagination { limit, offset, total }', async () => {
    w.sim.addItems(w.blog.id, 7); // 12 in all
    const page = (await (await w.api(`/collections/${w.blog.id}/items?offset=10&limit=5`)).json()) as ItemList;
    assert.deepEqual(page.pagination, { limit: 5, offset: 10, total: 12 });
    assert.equal(page.items.length, 2);
    const first = (await (await w.api(`/collections/${w.blog.id}/items`)).json()) as ItemList;
    assert.deepEqual(first.pagination, { limit: 100, offset: 0, total: 12 });
    const tooMany = await w.api(`/collections/${w.blog.id}/items?limit=101`);
    assert.equal(tooMany.status, 400);
  });

  it('create, update and delete an item; a duplicate slug answers 409 conflict', async () => {
    const created = await w.api(`/collections/${w.blog.id}/items`, {
      method: 'POST',
      body: { isDraft: true, fieldData: { name: 'Hello', slug: 'hello' } },
    });
    assert.equal(created.status, 202);
    const item = (await created.json()) as Item;
    assert.deepEqual([item.isDraft, item.lastPublished, item.fieldData.slug], [true, null, 'hello']);
    const dup = await w.api(`/collections/${w.blog.id}/items`, { method: 'POST', body: { fieldData: { name: 'Again', slug: 'hello' } } });
    assert.equal(dup.status, 409);
    assert.equal(((await dup.json()) as { code: string }).code, 'conflict');
    const patched = (await (
      await w.api(`/collections/${w.blog.id}/items/${item.id}`, { method: 'PATCH', body: { fieldData: { name: 'Hello again' } } })
    ).json()) as Item;
    assert.deepEqual([patched.fieldData.name, patched.fieldData.slug], ['Hello again', 'hello']);
    assert.equal((await w.api(`/collections/${w.blog.id}/items/${item.id}`, { method: 'DELETE' })).status, 204);
    const gone = await w.api(`/collections/${w.blog.id}/items/${item.id}`);
    assert.equal(gone.status, 404);
    assert.equal(((await gone.json()) as { code: string }).code, 'item_not_found');
  });

  it('publish sets an item live and unpublish (single and bulk) takes it down', async () => {
    const [a, b] = w.sim.addItems(w.blog.id, [{ isDraft: true }, {}]);
    const res = await w.api(`/collections/${w.blog.id}/items/publish`, { method: 'POST', body: { itemIds: [a.id, b.id, 'missing'] } });
    assert.equal(res.status, 202);
    assert.deepEqual(await res.json(), { publishedItemIds: [a.id, b.id], errors: ['missing'] });
    assert.equal(w.sim.item(w.blog.id, a.id)?.isDraft, false);
    assert.notEqual(w.sim.item(w.blog.id, a.id)?.lastPublished, null);
    assert.equal((await w.api(`/collections/${w.blog.id}/items/${a.id}/live`, { method: 'DELETE' })).status, 204);
    assert.equal(w.sim.item(w.blog.id, a.id)?.lastPublished, null);
    assert.equal((await w.api(`/collections/${w.blog.id}/items/live`, { method: 'DELETE', body: { items: [{ id: b.id }] } })).status, 204);
    assert.equal(w.sim.item(w.blog.id, b.id)?.lastPublished, null);
  });

  it("a collection on a site outside the token's grant is collection_not_found", async () => {
    const other = w.sim.addSite({ displayName: 'Other' });
    const token = w.sim.issueToken({ scopes: ['cms:read'], siteIds: [other.id] });
    const res = await w.api(`/collections/${w.blog.id}/items`, { token });
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { code: string }).code, 'collection_not_found');
  });
});
