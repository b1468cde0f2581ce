import assert from 'node:assert/strict';
import { newAccount, newAgentKey, type TestAccount } from '../../helpers/accounts';
import { newAsset, putGuide } from '../brand/fixtures';
import { harness } from '../../helpers/harness';
import { eventually } from '../../jobs/jobTestKit';
import { createItem, paragraph, runImages, setPlan, startImageWorld, suffix, unitsOf, type ImageWorld } from './imageRunKit';

const EXISTING = '<figure><img src="https://cdn.example.test/existing.png" alt="A unit on a wall"></figure>';

function article(): string {
  return [
    '<p>Why this matters.</p>',
    '<h2>How a heat pump moves heat</h2>',
    paragraph('heat transfer'),
    '<h2>Sizing the unit</h2>',
    EXISTING,
    paragraph('sizing'),
    '<h2>Conclusion</h2>',
    paragraph('wrap up'),
    '<h2>Running costs over a winter</h2>',
    paragraph('running costs'),
  ].join('\n');
}

/** The markup directly after the `</h2>` of `heading`. */
function afterHeading(body: string, heading: string): string {
  const at = body.indexOf(`<h2>${heading}</h2>`);
  assert.ok(at >= 0, `heading ${heading} in the body`);
  return body.slice(at + `<h2>${heading}</h2>`.length);
}

describe('image run (POST /api/marketing/content/{id}/images)', function () {
  this.timeout(120_000);
  let world: ImageWorld;
  let owner: TestAccount;

  before(async () => {
    world = await startImageWorld();
    owner = await newAccount('Images Co');
  });
  after(async () => world?.stop());
  afterEach(() => world.images.reset());

  it('plans a hero plus one image per H2 that adds information; a heading with an image, or a generic one, is left alone', async () => {
    const id = await createItem(world.app, owner.ownerToken, { body: article() });
    const res = await runImages(world.app, owner.ownerToken, id, { key: `plan-${suffix()}` });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.planner, 'heuristic');
    assert.deepEqual(
      res.body.assets.map((a: { slot: string; heading: string | null }) => [a.slot, a.heading]),
      [
        ['hero', null],
        ['section:0', 'How a heat pump moves heat'],
        ['section:3', 'Running costs over a winter'],
      ],
    );
    assert.deepEqual(
      res.body.skipped.map((s: { index: number; reason: string }) => [s.index, s.reason]),
      [
        [1, 'has_image'],
        [2, 'adds_no_information'],
      ],
    );
    assert.equal(res.body.charged, 3);
    assert.equal(res.body.refunded, 0);
    assert.deepEqual(res.body.warnings, []);
  });

  it('renders the hero first, then the sections concurrently', async () => {
    world.images.delayMs = 300;
    const id = await createItem(world.app, owner.ownerToken, { body: article() });
    const res = await runImages(world.app, owner.ownerToken, id);
    assert.equal(res.status, 201, res.text);
    const prompts = world.images.requests.map((r) => r.prompt);
    assert.equal(prompts.length, 3);
    assert.ok(prompts[0].includes('Heat pumps explained'), prompts[0]);
    // Two sections after the hero ran side by side: two renders in flight at once, never three (the hero ran alone).
    assert.equal(world.images.maxInFlight, 2);
  });

  it('places each image directly under its heading with alt text, keeps existing images, and makes the hero the featured image', async () => {
    const id = await createItem(world.app, owner.ownerToken, { body: article() });
    const res = await runImages(world.app, owner.ownerToken, id);
    assert.equal(res.status, 201, res.text);
    const item = (await world.app.call('GET', `/api/marketing/content/${id}`, { token: owner.ownerToken })).body;
    const [hero, first, last] = res.body.assets;

    assert.equal(item.featured_image_url, hero.url);
    assert.equal(item.featured_image_alt, hero.alt);
    assert.deepEqual(res.body.featured_image, { url: hero.url, alt: hero.alt });
    assert.match(
      afterHeading(item.body, 'How a heat pump moves heat'),
      new RegExp(`^<figure[^>]*><img src="${escape(first.url)}" alt="[^"]+"`),
    );
    assert.match(afterHeading(item.body, 'Running costs over a winter'), new RegExp(`^<figure[^>]*><img src="${escape(last.url)}"`));
    assert.ok(afterHeading(item.body, 'Sizing the unit').startsWith(`\n${EXISTING}`), 'the existing image is kept as it was');
    assert.ok(!afterHeading(item.body, 'Conclusion').trimStart().startsWith('<figure'));
    assert.equal((item.body.match(/<figure/g) ?? []).length, 3);

    // One version per placed image, written by the run.
    const versions = (await world.app.call('GET', `/api/marketing/content/${id}/versions`, { token: owner.ownerToken })).body;
    const byRun = versions.data.filter((v: { actor: { type: string; id: string } }) => v.actor.type === 'system');
    assert.equal(byRun.length, 3);
    assert.ok(byRun.every((v: { actor: { id: string } }) => v.actor.id === `workflow:${res.body.run_id}`));
  });

  it('prompts carry the brand image profile: its prompt block, its avoid list, and its reference images (logo first)', async () => {
    const account = await newAccount('Brand images');
    const logo = await newAsset(account.ownerToken, account.accountId);
    await newAsset(account.ownerToken, account.accountId, ['brand_reference']);
    const put = await putGuide(account.ownerToken, {
      visual_style: 'Bright natural light, real people at work.',
      avoid: ['stock handshakes'],
      primary_logo_asset_id: logo.id,
    });
    assert.equal(put.status, 200, put.text);
    const id = await createItem(world.app, account.ownerToken, { body: '<h2>A single section heading</h2>' + paragraph('single') });
    const res = await runImages(world.app, account.ownerToken, id, { body: { max_sections: 0 } });
    assert.equal(res.status, 201, res.text);
    const [sent] = world.images.requests;
    assert.equal(sent.endpoint, 'edits');
    assert.equal(sent.references.length, 2);
    assert.match(sent.prompt, /Bright natural light, real people at work\./);
    assert.match(sent.prompt, /Avoid: stock handshakes/);
  });

  it('registers every image in the media library tagged content_image and content:<item id>, hosted in the media store', async () => {
    const id = await createItem(world.app, owner.ownerToken, { body: article() });
    const res = await runImages(world.app, owner.ownerToken, id);
    assert.equal(res.status, 201, res.text);
    const listed = await world.app.call('GET', `/api/marketing/media?tag=${encodeURIComponent(`content:${id}`)}`, {
      token: owner.ownerToken,
    });
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.body.data.length, 3);
    for (const asset of res.body.assets) {
      assert.equal(asset.hosted_on, 'media_store');
      assert.deepEqual(asset.tags, ['content_image', `content:${id}`]);
      const row = listed.body.data.find((a: { id: string }) => a.id === asset.asset_id);
      assert.ok(row, `asset ${asset.asset_id} in the library`);
      assert.deepEqual([...row.tags].sort(), ['content_image', `content:${id}`].sort());
      assert.equal(row.url, asset.url);
      const file = await fetch(asset.url);
      assert.equal(file.status, 200);
      assert.equal(file.headers.get('content-type'), 'image/png');
    }
  });

  it('quota_exhausted: an empty allowance is 402 before planning; nothing renders or is charged', async () => {
    const account = await newAccount('No allowance');
    await setPlan(account.accountId, { image_allowance_monthly: 0 });
    const id = await createItem(world.app, account.ownerToken, { body: article() });
    const calls = world.images.calls;
    const res = await runImages(world.app, account.ownerToken, id, { key: `quota-${suffix()}` });
    assert.equal(res.status, 402, res.text);
    assert.equal(res.body.code, 'quota_exhausted');
    assert.equal(world.images.calls, calls);
    assert.deepEqual(await unitsOf(account.accountId), { reserved: 0, consumed: 0, refunded: 0 });
    const jobs = await world.app.call('GET', '/api/jobs?kind=content-images', { token: account.ownerToken });
    assert.equal(jobs.body.data.length, 0);
  });

  it('billing_standing: an account not in good standing is 402 with its own code; nothing runs', async () => {
    const account = await newAccount('Past due');
    await setPlan(account.accountId, { billing_standing: 'past_due' });
    const id = await createItem(world.app, account.ownerToken, { body: article() });
    const calls = world.images.calls;
    const res = await runImages(world.app, account.ownerToken, id);
    assert.equal(res.status, 402, res.text);
    assert.equal(res.body.code, 'billing_standing');
    assert.equal(world.images.calls, calls);
  });

  it('an allowance smaller than the plan renders what it covers; the rest is skipped with a warning and not charged', async () => {
    const account = await newAccount('Two images');
    await setPlan(account.accountId, { image_allowance_monthly: 2 });
    const id = await createItem(world.app, account.ownerToken, { body: article() });
    const res = await runImages(world.app, account.ownerToken, id);
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.assets.length, 2);
    assert.equal(res.body.charged, 2);
    assert.ok(
      res.body.warnings.some((w: string) => w.includes('allowance is used up')),
      res.body.warnings.join('\n'),
    );
    assert.deepEqual(await unitsOf(account.accountId), { reserved: 0, consumed: 2, refunded: 0 });
  });

  it('a failed render is refunded: its unit no longer counts, the others are charged, a warning says so', async () => {
    const account = await newAccount('Refunds');
    await setPlan(account.accountId, { image_allowance_monthly: 10 });
    world.images.failPrompts('Running costs over a winter', 400, { code: 'moderation_blocked' });
    const id = await createItem(world.app, account.ownerToken, { body: article() });
    const res = await runImages(world.app, account.ownerToken, id);
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(
      res.body.assets.map((a: { slot: string }) => a.slot),
      ['hero', 'section:0'],
    );
    assert.equal(res.body.charged, 2);
    assert.equal(res.body.refunded, 1);
    assert.ok(
      res.body.warnings.some((w: string) => /Running costs over a winter.*refunded/.test(w)),
      res.body.warnings.join('\n'),
    );
    assert.deepEqual(await unitsOf(account.accountId), { reserved: 0, consumed: 2, refunded: 1 });
    const plan = await world.app.call('GET', '/api/account/plan', { token: account.ownerToken });
    assert.equal(plan.body.images.remaining, 8, plan.text);
    const item = (await world.app.call('GET', `/api/marketing/content/${id}`, { token: account.ownerToken })).body;
    assert.ok(!afterHeading(item.body, 'Running costs over a winter').startsWith('<figure'));
  });

  it('a retryable provider failure is retried and charged once', async () => {
    const account = await newAccount('Retry');
    world.images.failNext(1, 503);
    const id = await createItem(world.app, account.ownerToken, { body: '<h2>Only section heading here</h2>' + paragraph('only') });
    const res = await runImages(world.app, account.ownerToken, id, { body: { max_sections: 0 } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.assets.length, 1);
    assert.deepEqual(await unitsOf(account.accountId), { reserved: 0, consumed: 1, refunded: 0 });
  });

  it('an item with a featured image keeps it unless replace_featured is sent', async () => {
    const id = await createItem(world.app, owner.ownerToken, {
      body: article(),
      featured_image_url: 'https://cdn.example.test/chosen.png',
      featured_image_alt: 'Chosen by an editor',
    });
    const kept = await runImages(world.app, owner.ownerToken, id, { body: { max_sections: 0 } });
    assert.equal(kept.status, 201, kept.text);
    assert.deepEqual(kept.body.assets, []);
    assert.equal(kept.body.featured_image, null);

    const replaced = await runImages(world.app, owner.ownerToken, id, { body: { max_sections: 0, replace_featured: true } });
    assert.equal(replaced.status, 201, replaced.text);
    const item = (await world.app.call('GET', `/api/marketing/content/${id}`, { token: owner.ownerToken })).body;
    assert.equal(item.featured_image_url, replaced.body.assets[0].url);
  });

  it('a second run leaves the images of the first alone: every heading now has one', async () => {
    const id = await createItem(world.app, owner.ownerToken, { body: article() });
    assert.equal((await runImages(world.app, owner.ownerToken, id)).status, 201);
    const again = await runImages(world.app, owner.ownerToken, id);
    assert.equal(again.status, 201, again.text);
    assert.deepEqual(again.body.assets, []);
    assert.equal(again.body.charged, 0);
  });

  it('idempotency: the same key attaches to the same run and answers its result; nothing renders twice', async () => {
    const id = await createItem(world.app, owner.ownerToken, { body: article() });
    const key = `same-${suffix()}`;
    const first = await runImages(world.app, owner.ownerToken, id, { key });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.run_id, `content-images:${owner.accountId}:${id}:${key}`);
    const calls = world.images.calls;
    const second = await runImages(world.app, owner.ownerToken, id, { key });
    assert.equal(second.status, 201, second.text);
    assert.deepEqual(second.body, first.body);
    assert.equal(world.images.calls, calls);

    const other = await runImages(world.app, owner.ownerToken, id, { key, body: { max_sections: 1 } });
    assert.equal(other.status, 409, other.text);
    assert.equal(other.body.code, 'idempotency_key_reused');
  });

  it('a retry with the key of a finished run is answered even after the allowance ran out', async () => {
    const account = await newAccount('Retry after quota');
    await setPlan(account.accountId, { image_allowance_monthly: 1 });
    const id = await createItem(world.app, account.ownerToken, { body: '<h2>One heading only</h2>' + paragraph('one') });
    const key = `after-${suffix()}`;
    const first = await runImages(world.app, account.ownerToken, id, { key, body: { max_sections: 0 } });
    assert.equal(first.status, 201, first.text);
    const again = await runImages(world.app, account.ownerToken, id, { key, body: { max_sections: 0 } });
    assert.equal(again.status, 201, again.text);
    assert.deepEqual(again.body, first.body);
    const fresh = await runImages(world.app, account.ownerToken, id, { body: { max_sections: 0, replace_featured: true } });
    assert.equal(fresh.status, 402);
  });

  it('202 past the wait bound: the job, then its result once it finishes', async () => {
    const app = await world.appWith({ IMAGE_WAIT_SECONDS: 0 });
    world.images.delayMs = 500;
    const id = await createItem(app, owner.ownerToken, { body: article() });
    const res = await runImages(app, owner.ownerToken, id, { key: `slow-${suffix()}` });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.kind, 'content-images');
    const location = res.headers.get('location');
    assert.ok(location?.startsWith('/api/jobs/content-images:'), location ?? 'no Location');
    const done = await eventually(
      async () => (await app.call('GET', location!, { token: owner.ownerToken })).body,
      (job) => job.status !== 'running',
      60_000,
      'the image job to finish',
    );
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.equal(done.result.assets.length, 3);
  });

  it('the agent twin needs marketing.content:update; a read-only key is refused and nothing runs', async () => {
    const id = await createItem(world.app, owner.ownerToken, { body: article() });
    const reader = await newAgentKey(owner.accountId, ['marketing.content:read']);
    const refused = await runImages(world.app, reader, id, { agent: true });
    assert.equal(refused.status, 403, refused.text);
    const writer = await newAgentKey(owner.accountId, ['marketing.content:update']);
    const ran = await runImages(world.app, writer, id, { agent: true, body: { max_sections: 1 } });
    assert.equal(ran.status, 201, ran.text);
    assert.equal(ran.body.assets.length, 2);
  });

  it("another account's item is 404 and nothing runs", async () => {
    const other = await newAccount('Other');
    const id = await createItem(world.app, other.ownerToken, { body: article() });
    const calls = world.images.calls;
    const res = await runImages(world.app, owner.ownerToken, id);
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'content_not_found');
    assert.equal(world.images.calls, calls);
  });

  it('image_provider_not_configured: without an image key the run is 503 and nothing is charged', async () => {
    const app = await world.appWith({ IMAGE_API_KEY: undefined });
    const id = await createItem(app, owner.ownerToken, { body: article() });
    const before = await unitsOf(owner.accountId);
    const res = await runImages(app, owner.ownerToken, id);
    assert.equal(res.status, 503, res.text);
    assert.equal(res.body.code, 'image_provider_not_configured');
    assert.deepEqual(await unitsOf(owner.accountId), before);
  });

  it('bad input is a coded 400 and nothing runs', async () => {
    const id = await createItem(world.app, owner.ownerToken, { body: article() });
    const calls = world.images.calls;
    for (const body of [{ max_sections: 9 }, { max_sections: -1 }, { replace_featured: 'yes' }, { extra: true }]) {
      const res = await runImages(world.app, owner.ownerToken, id, { body });
      assert.equal(res.status, 400, JSON.stringify(body));
    }
    const badKey = await runImages(world.app, owner.ownerToken, id, { key: 'x'.repeat(256) });
    assert.equal(badKey.status, 400);
    assert.equal(world.images.calls, calls);
    const { count } = (await harness().db('content_versions').where({ content_id: id }).count({ count: '*' }).first()) as { count: string };
    assert.equal(Number(count), 1);
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
