import assert from 'node:assert/strict';
import { placeImage } from '../../../src/marketing/images/place';
import type { PlaceRequest, PlannedImage } from '../../../workflows/contentImages.contract';
import { call } from '../../helpers/http';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';

const SECTION: PlannedImage = {
  slot: 'section:0',
  heading: 'Choosing a supplier',
  headingIndex: 0,
  prompt: 'A supplier at work',
  alt: 'A supplier at work',
  size: '1536x1024',
};
const HERO: PlannedImage = { ...SECTION, slot: 'hero', heading: null, headingIndex: null, alt: 'The hero' };

function request(accountId: string, contentId: string, image: PlannedImage, url: string, replaceFeatured = false): PlaceRequest {
  return {
    accountId,
    contentId,
    image,
    rendered: {
      unitKey: `wf:run:${image.slot}`,
      url,
      hostedOn: 'media_store',
      assetId: null,
      platformAssetId: null,
      width: 1536,
      height: 1024,
      mimeType: 'image/png',
      warnings: [],
    },
    replaceFeatured,
    workflowId: 'content-images:test',
  };
}

describe('image placement through the content service', () => {
  let owner: TestAccount;
  const db = () => harness().db;
  const item = async (id: string) => (await call('GET', `/api/marketing/content/${id}`, { token: owner.ownerToken })).body;
  const versions = async (id: string) =>
    Number(((await db()('content_versions').where({ content_id: id }).count({ count: '*' }).first()) as { count: string }).count);

  before(async () => {
    owner = await newAccount('Placement Co');
  });

  async function create(body: Record<string, unknown>): Promise<string> {
    const res = await call('POST', '/api/marketing/content', { token: owner.ownerToken, body: { title: 'Suppliers', ...body } });
    assert.equal(res.status, 201, res.text);
    return res.body.id;
  }

  it("never overwrites an editor's concurrent change: the image is applied on top of the body as it is now", async () => {
    const id = await create({ body: '<h2>Choosing a supplier</h2><p>Old text.</p>' });
    // An editor saves between the run's plan and its placement.
    const edited = '<p>New intro by the editor.</p><h2>Choosing a supplier</h2><p>Rewritten text.</p>';
    assert.equal((await call('PUT', `/api/marketing/content/${id}`, { token: owner.ownerToken, body: { body: edited } })).status, 200);

    const outcome = await placeImage(db(), request(owner.accountId, id, SECTION, 'https://img.example.test/a.png'));
    assert.equal(outcome.placed, true);
    const body: string = (await item(id)).body;
    assert.ok(body.startsWith('<p>New intro by the editor.</p><h2>Choosing a supplier</h2><figure'), body);
    assert.ok(body.endsWith('</figure><p>Rewritten text.</p>'), body);
    assert.match(body, /<img src="https:\/\/img\.example\.test\/a\.png" alt="A supplier at work" width="1536" height="1024"/);
  });

  it('writes one version row per placed image, by the run', async () => {
    const id = await create({ body: '<h2>Choosing a supplier</h2><p>Text.</p>' });
    const before = await versions(id);
    await placeImage(db(), request(owner.accountId, id, SECTION, 'https://img.example.test/b.png'));
    assert.equal(await versions(id), before + 1);
    const last = await db()('content_versions').where({ content_id: id }).orderBy('version', 'desc').first();
    assert.deepEqual([last.actor_type, last.actor_id], ['system', 'workflow:content-images:test']);
    assert.deepEqual(last.changed_fields, ['body']);
  });

  it('a repeated placement of the same image (a retried step) changes nothing and writes no version', async () => {
    const id = await create({ body: '<h2>Choosing a supplier</h2><p>Text.</p>' });
    const req = request(owner.accountId, id, SECTION, 'https://img.example.test/c.png');
    await placeImage(db(), req);
    const count = await versions(id);
    assert.deepEqual(await placeImage(db(), req), { placed: true, version: null });
    assert.equal(await versions(id), count);
    assert.equal(((await item(id)).body.match(/<figure/g) ?? []).length, 1);
  });

  it('a heading an editor removed meanwhile is not placed; the body stays as the editor left it', async () => {
    const id = await create({ body: '<h2>Something else</h2><p>Text.</p>' });
    const count = await versions(id);
    assert.deepEqual(await placeImage(db(), request(owner.accountId, id, SECTION, 'https://img.example.test/d.png')), {
      placed: false,
      reason: 'heading_gone',
    });
    assert.equal((await item(id)).body, '<h2>Something else</h2><p>Text.</p>');
    assert.equal(await versions(id), count);
  });

  it('a heading that got an image meanwhile is left alone', async () => {
    const id = await create({ body: '<h2>Choosing a supplier</h2><img src="https://x.test/own.png" alt="own"><p>Text.</p>' });
    assert.deepEqual(await placeImage(db(), request(owner.accountId, id, SECTION, 'https://img.example.test/e.png')), {
      placed: false,
      reason: 'image_present',
    });
  });

  it('the hero becomes the featured image with its alt; one an editor set meanwhile is kept unless the run replaces it', async () => {
    const id = await create({ body: '<p>Text.</p>' });
    assert.equal((await placeImage(db(), request(owner.accountId, id, HERO, 'https://img.example.test/hero.png'))).placed, true);
    assert.equal((await item(id)).featured_image_url, 'https://img.example.test/hero.png');
    assert.equal((await item(id)).featured_image_alt, 'The hero');

    await call('PUT', `/api/marketing/content/${id}`, {
      token: owner.ownerToken,
      body: { featured_image_url: 'https://x.test/editor.png' },
    });
    assert.deepEqual(await placeImage(db(), request(owner.accountId, id, HERO, 'https://img.example.test/hero2.png')), {
      placed: false,
      reason: 'featured_present',
    });
    assert.equal((await item(id)).featured_image_url, 'https://x.test/editor.png');
    assert.equal((await placeImage(db(), request(owner.accountId, id, HERO, 'https://img.example.test/hero3.png', true))).placed, true);
    assert.equal((await item(id)).featured_image_url, 'https://img.example.test/hero3.png');
  });

  it('an item deleted meanwhile is answered item_gone', async () => {
    const id = await create({ body: '<h2>Choosing a supplier</h2>' });
    assert.equal((await call('DELETE', `/api/marketing/content/${id}`, { token: owner.ownerToken })).status, 204);
    assert.deepEqual(await placeImage(db(), request(owner.accountId, id, SECTION, 'https://img.example.test/f.png')), {
      placed: false,
      reason: 'item_gone',
    });
  });
});
