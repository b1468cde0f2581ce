import assert from 'node:assert/strict';
import { SHOP, installedSimulator, type Installed } from './fixtures';

function links(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (res.headers.get('link') ?? '').split(',')) {
    const m = /<([^>]+)>;\s*rel="(\w+)"/.exec(part);
    if (m) out[m[2]] = m[1];
  }
  return out;
}

const hourIso = (h: number) => new Date(Date.UTC(2026, 0, 1, h)).toISOString();

describe('commerce simulator: orders listing', () => {
  let s: Installed;
  beforeEach(async () => {
    s = await installedSimulator();
  });
  afterEach(() => s.sim.stop());

  it("generated orders look like the platform's: numeric ids, #names, totals, guests without email", () => {
    const orders = s.sim.addOrders(SHOP, 20);
    assert.equal(orders.length, 20);
    assert.deepEqual(
      orders.map((o) => o.name),
      orders.map((_, i) => `#${1001 + i}`),
    );
    for (const o of orders) {
      assert.ok(Number.isSafeInteger(o.id) && o.id > 0, 'an integer id');
      assert.match(o.total_price, /^\d+\.\d{2}$/);
      assert.equal(o.currency, 'USD');
      assert.ok(o.line_items.length > 0);
      assert.equal(o.customer?.email ?? null, o.email);
      assert.ok(Date.parse(o.updated_at) >= Date.parse(o.created_at));
      const lines = o.line_items.reduce((sum, li) => sum + Math.round(Number(li.price) * 100) * li.quantity, 0);
      assert.equal(Math.round(Number(o.subtotal_price) * 100), lines);
    }
    assert.ok(
      orders.some((o) => o.email === null),
      'some guest orders',
    );
    const emails = orders.map((o) => o.email).filter(Boolean);
    assert.ok(new Set(emails).size < emails.length, 'some repeat customers');
  });

  it('pages through three pages by the Link header, with updated_at_min filtering', async () => {
    const added = s.sim.addOrders(
      SHOP,
      Array.from({ length: 10 }, (_, i) => ({ created_at: hourIso(i), updated_at: hourIso(i), email: `b${i}@example.com` })),
    );
    const since = hourIso(3);
    let res = await s.admin(`/orders.json?status=any&updated_at_min=${encodeURIComponent(since)}&order=updated_at%20asc&limit=3`);
    const seen: string[] = [];
    const pages: Array<Record<string, string>> = [];
    for (;;) {
      assert.equal(res.status, 200);
      const { orders } = (await res.json()) as { orders: Array<{ id: string }> };
      seen.push(...orders.map((o) => o.id));
      pages.push(links(res));
      const next = links(res).next;
      if (!next) break;
      assert.match(next, /page_info=[^&]+/);
      assert.ok(next.startsWith(`${s.sim.baseUrl}/${SHOP}/admin/api/2025-04/orders.json?`));
      res = await s.admin(next);
    }
    assert.deepEqual(
      seen,
      added.slice(3).map((o) => o.id),
    );
    assert.equal(pages.length, 3);
    assert.equal(pages[0].previous, undefined);
    assert.ok(pages[1].previous && pages[1].next);
    assert.equal(pages[2].next, undefined);
    const back = await s.admin(pages[2].previous);
    assert.deepEqual(
      ((await back.json()) as { orders: Array<{ id: string }> }).orders.map((o) => o.id),
      seen.slice(3, 6),
    );
  });

  it('an updated order moves past updated_at_min', async () => {
    const [old] = s.sim.addOrders(SHOP, [{ created_at: hourIso(1), updated_at: hourIso(1) }]);
    const cutoff = new Date(Date.now() - 1000).toISOString();
    const before = (await (await s.admin(`/orders.json?status=any&updated_at_min=${cutoff}`)).json()) as { orders: unknown[] };
    assert.equal(before.orders.length, 0);
    const updated = s.sim.updateOrder(SHOP, old.id, { financial_status: 'refunded' });
    assert.ok(Date.parse(updated.updated_at) >= Date.parse(cutoff));
    const after = (await (await s.admin(`/orders.json?status=any&updated_at_min=${cutoff}`)).json()) as {
      orders: Array<{ id: string; financial_status: string }>;
    };
    assert.deepEqual(
      after.orders.map((o) => [o.id, o.financial_status]),
      [[old.id, 'refunded']],
    );
  });

  it('status defaults to open; status=any includes closed orders', async () => {
    s.sim.addOrders(SHOP, [{ closed_at: null }, { closed_at: hourIso(2), fulfillment_status: 'fulfilled' }]);
    const open = (await (await s.admin('/orders.json')).json()) as { orders: unknown[] };
    const any = (await (await s.admin('/orders.json?status=any')).json()) as { orders: unknown[] };
    assert.equal(open.orders.length, 1);
    assert.equal(any.orders.length, 2);
  });

  it('page_info combined with a filter, a bad cursor or a limit over 250 answers 400', async () => {
    s.sim.addOrders(SHOP, 3);
    const first = await s.admin('/orders.json?status=any&limit=1');
    const pageInfo = new URL(links(first).next).searchParams.get('page_info')!;
    assert.equal((await s.admin(`/orders.json?page_info=${pageInfo}&status=any`)).status, 400);
    assert.equal((await s.admin('/orders.json?page_info=not-a-cursor')).status, 400);
    assert.equal((await s.admin('/orders.json?limit=251')).status, 400);
    assert.equal((await s.admin('/orders.json?updated_at_min=yesterday')).status, 400);
  });

  it('every Admin call needs the access token: 401 without it', async () => {
    const res = await fetch(`${s.sim.baseUrl}/${SHOP}/admin/api/2025-04/orders.json`);
    assert.equal(res.status, 401);
    assert.match(((await res.json()) as { errors: string }).errors, /access token/);
  });

  it('a token without read_orders answers 403; another API version answers 404', async () => {
    s.sim.addApp({ clientId: 'narrow', clientSecret: 'narrow-secret', scopes: ['read_products'] });
    const redirect = await fetch(
      `${s.sim.baseUrl}/${SHOP}/admin/oauth/authorize?client_id=narrow&scope=read_orders&redirect_uri=https://a.example/cb`,
      { redirect: 'manual' },
    );
    const code = new URL(redirect.headers.get('location')!).searchParams.get('code');
    const tokenRes = await fetch(`${s.sim.baseUrl}/${SHOP}/admin/oauth/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: 'narrow', client_secret: 'narrow-secret', code: code! }),
    });
    const { access_token } = (await tokenRes.json()) as { access_token: string };
    const res = await fetch(`${s.sim.baseUrl}/${SHOP}/admin/api/2025-04/orders.json`, {
      headers: { 'x-commerce-access-token': access_token },
    });
    assert.equal(res.status, 403);
    assert.equal((await s.admin(`${s.sim.baseUrl}/${SHOP}/admin/api/2024-01/orders.json`)).status, 404);
  });

  it('products and custom collections list with the catalog', async () => {
    const products = (await (await s.admin('/products.json')).json()) as { products: Array<{ id: string; variants: unknown[] }> };
    assert.deepEqual(
      products.products.map((p) => p.id),
      s.sim.catalog.products(SHOP).map((p) => p.id),
    );
    assert.ok(products.products.every((p) => p.variants.length === 1));
    const collections = (await (await s.admin('/custom_collections.json?limit=1')).json()) as { custom_collections: unknown[] };
    assert.equal(collections.custom_collections.length, 1);
  });
});
