import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { extendedWorld, type ExtendedWorld } from './extended';

describe('site platform simulator: assets, custom code, forms, ecommerce, webhooks', () => {
  let w: ExtendedWorld;
  afterEach(() => w.sim.stop());

  it('asset upload is two steps: the record answers a loopback upload URL and the bytes posted there complete it', async () => {
    w = await extendedWorld();
    const bytes = Buffer.from('PNG-bytes');
    const fileHash = createHash('md5').update(bytes).digest('hex');
    const created = (await (
      await w.api(`/sites/${w.site.id}/assets`, { method: 'POST', body: { fileName: 'logo.png', fileHash } })
    ).json()) as { id: string; uploadUrl: string; uploadDetails: Record<string, string>; hostedUrl: string | null };
    assert.equal(created.hostedUrl, null);
    const form = new FormData();
    for (const [k, v] of Object.entries(created.uploadDetails)) form.append(k, v);
    form.append('file', new Blob([bytes]), 'logo.png');
    assert.equal((await fetch(created.uploadUrl, { method: 'POST', body: form })).status, 201);
    const asset = (await (await w.api(`/assets/${created.id}`)).json()) as { size: number; hostedUrl: string | null; contentType: string };
    assert.deepEqual([asset.size, asset.contentType, asset.hostedUrl !== null], [bytes.length, 'image/png', true]);
  });

  it('applying site custom code needs a script registered at that version', async () => {
    w = await extendedWorld();
    const s = `/sites/${w.site.id}`;
    const script = (await (
      await w.api(`${s}/registered_scripts/inline`, {
        method: 'POST',
        body: { displayName: 'Chat Widget', version: '1.0.0', sourceCode: 'console.log(1)' },
      })
    ).json()) as { id: string };
    const refused = await w.api(`${s}/custom_code`, {
      method: 'PUT',
      body: { scripts: [{ id: script.id, location: 'footer', version: '2.0.0' }] },
    });
    assert.equal(refused.status, 400);
    assert.equal(
      (await w.api(`${s}/custom_code`, { method: 'PUT', body: { scripts: [{ id: script.id, location: 'footer', version: '1.0.0' }] } }))
        .status,
      200,
    );
    const blocks = (await (await w.api(`${s}/custom_code/blocks`)).json()) as { blocks: Array<{ type: string; scripts: unknown[] }> };
    assert.deepEqual(
      blocks.blocks.map((b) => [b.type, b.scripts.length]),
      [['site', 1]],
    );
  });

  it('forms answer 409 forms_require_republish until the site is published once', async () => {
    w = await extendedWorld();
    const form = w.sim.addForm(w.site.id, { displayName: 'Contact' });
    w.sim.addSubmission(w.site.id, form.id, { Name: 'Ada' });
    const before = await w.api(`/sites/${w.site.id}/forms`);
    assert.equal(before.status, 409);
    assert.equal(((await before.json()) as { code: string }).code, 'forms_require_republish');
    await w.api(`/sites/${w.site.id}/publish`, { method: 'POST', body: { publishToWebflowSubdomain: true } });
    const forms = (await (await w.api(`/sites/${w.site.id}/forms`)).json()) as { forms: Array<{ id: string }> };
    assert.deepEqual(
      forms.forms.map((f) => f.id),
      [form.id],
    );
    const subs = (await (await w.api(`/forms/${form.id}/submissions`)).json()) as { formSubmissions: Array<{ formResponse: unknown }> };
    assert.deepEqual(
      subs.formSubmissions.map((s) => s.formResponse),
      [{ Name: 'Ada' }],
    );
  });

  it('ecommerce routes answer 409 ecommerce_not_enabled when the site has ecommerce off', async () => {
    w = await extendedWorld();
    for (const path of ['/products', '/orders']) {
      const res = await w.api(`/sites/${w.site.id}${path}`);
      assert.equal(res.status, 409);
      assert.equal(((await res.json()) as { code: string }).code, 'ecommerce_not_enabled');
    }
  });

  it('with ecommerce on, a product with its SKU is created, inventory is adjusted and an order is fulfilled then refunded', async () => {
    w = await extendedWorld({ ecommerce: true });
    const s = `/sites/${w.site.id}`;
    const created = (await (
      await w.api(`${s}/products`, {
        method: 'POST',
        body: { product: { fieldData: { name: 'Mug' } }, sku: { fieldData: { name: 'Mug', price: { value: 1200, unit: 'USD' } } } },
      })
    ).json()) as { product: { id: string }; skus: Array<{ id: string }> };
    const inv = `/collections/sku-collection/items/${created.skus[0].id}/inventory`;
    await w.api(inv, { method: 'PATCH', body: { inventoryType: 'finite', quantity: 5 } });
    assert.deepEqual(await (await w.api(inv, { method: 'PATCH', body: { inventoryType: 'finite', updateQuantity: -2 } })).json(), {
      id: created.skus[0].id,
      inventoryType: 'finite',
      quantity: 3,
    });
    const order = w.sim.addOrder(w.site.id);
    assert.equal(
      ((await (await w.api(`${s}/orders/${order.orderId}/fulfill`, { method: 'POST', body: {} })).json()) as { status: string }).status,
      'fulfilled',
    );
    assert.equal(
      (
        (await (await w.api(`${s}/orders/${order.orderId}/refund`, { method: 'POST', body: { reason: 'requested' } })).json()) as {
          status: string;
        }
      ).status,
      'refunded',
    );
    assert.equal((await w.api(`${s}/orders/${order.orderId}/fulfill`, { method: 'POST', body: {} })).status, 409);
  });

  it('webhooks are created by an OAuth app only, listed and deleted; like the platform there is no PATCH /webhooks/{id}', async () => {
    w = await extendedWorld();
    const path = `/sites/${w.site.id}/webhooks`;
    const body = { triggerType: 'form_submission', url: 'https://hooks.example.test/a' };
    assert.equal((await w.api(path, { method: 'POST', body })).status, 403);
    const hook = (await (await w.api(path, { method: 'POST', body, token: w.oauthToken })).json()) as { id: string };
    const patch = await w.api(`/webhooks/${hook.id}`, { method: 'PATCH', body: { url: 'https://hooks.example.test/b' } });
    assert.equal(patch.status, 405);
    assert.equal(((await (await w.api(`/webhooks/${hook.id}`)).json()) as { url: string }).url, 'https://hooks.example.test/a');
    assert.deepEqual(
      ((await (await w.api(path)).json()) as { webhooks: Array<{ id: string }> }).webhooks.map((h) => h.id),
      [hook.id],
    );
    assert.equal((await w.api(`/webhooks/${hook.id}`, { method: 'DELETE' })).status, 204);
    assert.equal((await w.api(`/webhooks/${hook.id}`)).status, 404);
  });
});
