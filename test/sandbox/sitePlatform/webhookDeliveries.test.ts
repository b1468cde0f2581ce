import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebflowClient } from 'webflow-api';
import * as serializers from 'webflow-api/serialization';
import {
  startSitePlatformSimulator,
  type SimCollection,
  type SimPage,
  type SimSite,
  type SimulatorOptions,
  type SitePlatformSimulator,
} from '../../../src/sandbox/sitePlatform';
import { EVERY_SCOPE } from './extended';
import { APP, authorizeCode, exchange } from './fixtures';
import { startReceiver, type Received, type Receiver } from './webhookReceiver';

const TRIGGERS = [
  'site_publish',
  'collection_item_created',
  'collection_item_changed',
  'collection_item_deleted',
  'collection_item_published',
  'collection_item_unpublished',
  'page_created',
  'page_deleted',
  'page_metadata_updated',
  'form_submission',
  'comment_created',
] as const;
type Trigger = (typeof TRIGGERS)[number];

interface Serializer {
  parse(
    raw: unknown,
    opts?: Record<string, unknown>,
  ): { ok: true; value: unknown } | { ok: false; errors: Array<{ path: string[]; message: string }> };
}

/** The SDK's webhook type for each trigger: every delivery must parse under it with unknown keys refused. */
const SHAPES: Record<Trigger, Serializer> = {
  site_publish: serializers.SitePublish,
  collection_item_created: serializers.CollectionItemCreated,
  collection_item_changed: serializers.CollectionItemChanged,
  collection_item_deleted: serializers.CollectionItemRemoved,
  collection_item_published: serializers.CollectionItemPublished,
  collection_item_unpublished: serializers.CollectionItemUnpublished,
  page_created: serializers.PageCreatedWebhook,
  page_deleted: serializers.PageDeletedWebhook,
  page_metadata_updated: serializers.PageMetadataUpdatedWebhook,
  form_submission: serializers.FormSubmissionTrigger,
  comment_created: serializers.Comment,
};
const STRICT = { unrecognizedObjectKeys: 'fail', allowUnrecognizedEnumValues: false, skipValidation: false } as const;
/** Fields the platform's form_submission deliveries carry beyond the SDK's FormSubmissionTriggerPayload. */
const FORM_PAGE_FIELDS = ['pageId', 'publishedPath', 'pageUrl'];

const sdk = new WebflowClient({ accessToken: 'x' });

interface Envelope {
  triggerType: string;
  payload: Record<string, unknown>;
}

const envelope = (r: Received): Envelope => JSON.parse(r.raw.toString('utf8')) as Envelope;
/** Payload ids, sorted: deliveries of one request travel in parallel, in no guaranteed order (as on the platform). */
const ids = (hits: Received[]): string[] => hits.map((r) => String(envelope(r).payload.id)).sort();

function verify(r: Received, secret = APP.clientSecret): Promise<boolean> {
  return sdk.webhooks.verifySignature({ headers: r.headers as Record<string, string>, body: r.raw.toString('utf8'), secret });
}

function assertShape(trigger: Trigger, env: Envelope): void {
  const payload = { ...env.payload };
  if (trigger === 'form_submission') for (const key of FORM_PAGE_FIELDS) delete payload[key];
  const parsed = SHAPES[trigger].parse({ ...env, payload }, STRICT);
  if (!parsed.ok) assert.fail(`${trigger}: ${parsed.errors.map((e) => `${e.path.join('.')}: ${e.message}`).join('; ')}`);
}

interface Setup {
  sim: SitePlatformSimulator;
  site: SimSite;
  blog: SimCollection;
  home: SimPage;
  oauthToken: string;
  receiver: Receiver;
  api(path: string, init?: { method?: string; body?: unknown; token?: string }): Promise<Response>;
  /** Registers through POST /v2/sites/{id}/webhooks (the OAuth token by default); answers the created id. */
  register(triggerType: string, path: string, extra?: { filter?: { name: string }; token?: string }): Promise<string>;
  at(path: string): Received[];
}

async function setup(options: SimulatorOptions = {}): Promise<Setup> {
  const sim = await startSitePlatformSimulator({ webhookRetryIntervalMs: 60, ...options });
  sim.addApp(APP);
  const site = sim.addSite({
    displayName: 'Maple Studio',
    workspaceId: 'ws-maple',
    customDomains: ['www.maple.test'],
    secondaryLocales: ['fr'],
  });
  const blog = sim.addCollection(site.id, { displayName: 'Blog Posts', singularName: 'Blog Post' });
  sim.addItems(blog.id, 2);
  const home = sim.addPage(site.id, { title: 'Home', slug: '' });
  const code = (await authorizeCode(sim, EVERY_SCOPE)).searchParams.get('code')!;
  const oauthToken = ((await (await exchange(sim, code)).json()) as { access_token: string }).access_token;
  const receiver = await startReceiver();
  const api: Setup['api'] = (path, init = {}) => {
    const headers: Record<string, string> = { authorization: `Bearer ${init.token ?? oauthToken}` };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${sim.baseUrl}/v2${path}`, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  };
  const register: Setup['register'] = async (triggerType, path, extra = {}) => {
    const res = await api(`/sites/${site.id}/webhooks`, {
      method: 'POST',
      token: extra.token,
      body: { triggerType, url: `${receiver.base}${path}`, ...(extra.filter ? { filter: extra.filter } : {}) },
    });
    assert.equal(res.status, 200, `register ${triggerType}: ${await res.clone().text()}`);
    return ((await res.json()) as { id: string }).id;
  };
  const at = (path: string) => receiver.received.filter((r) => r.path === path);
  return { sim, site, blog, home, oauthToken, receiver, api, register, at };
}

async function expectStatus(res: Promise<Response>, status: number): Promise<Record<string, unknown>> {
  const answer = await res;
  const text = await answer.text();
  assert.equal(answer.status, status, text);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('site platform simulator: webhook deliveries', () => {
  let s: Setup;
  afterEach(async () => {
    await s.sim.stop();
    await s.receiver.close();
  });

  it('each of the 11 triggers fires on its change as {triggerType, payload} in the SDK webhook type, signed with the OAuth app secret (SDK-verified)', async () => {
    s = await setup();
    const { sim, site, blog, home, api } = s;
    for (const t of TRIGGERS) await s.register(t, `/hooks/${t}`);

    const item = await expectStatus(
      api(`/collections/${blog.id}/items`, { method: 'POST', body: { fieldData: { name: 'Launch', slug: 'launch' } } }),
      202,
    );
    const itemPath = `/collections/${blog.id}/items/${String(item.id)}`;
    await expectStatus(api(itemPath, { method: 'PATCH', body: { fieldData: { name: 'Launch day' } } }), 200);
    await expectStatus(api(`/collections/${blog.id}/items/publish`, { method: 'POST', body: { itemIds: [item.id] } }), 202);
    await expectStatus(api(`${itemPath}/live`, { method: 'DELETE' }), 204);
    await expectStatus(api(itemPath, { method: 'DELETE' }), 204);
    await expectStatus(api(`/pages/${home.id}`, { method: 'PUT', body: { seo: { title: 'Maple — home' } } }), 200);
    await expectStatus(
      api(`/sites/${site.id}/publish`, {
        method: 'POST',
        body: { customDomains: [site.customDomains[0].id], publishToWebflowSubdomain: true },
      }),
      202,
    );
    const about = sim.addPage(site.id, { title: 'About', slug: 'about' });
    sim.deletePage(site.id, about.id);
    const form = sim.addForm(site.id, { displayName: 'Contact', pageId: home.id, fields: ['Name', 'Email'] });
    const { submission } = sim.submitForm(site.id, form.id, { Name: 'Ada', Email: 'ada@example.test' });
    const thread = sim.addCommentThread(site.id, { pageId: home.id, content: 'Typo in the hero' });
    await sim.flushWebhooks();

    const got = {} as Record<Trigger, Envelope>;
    for (const t of TRIGGERS) {
      const hits = s.at(`/hooks/${t}`);
      assert.equal(hits.length, 1, `${t}: one delivery`);
      assert.equal(hits[0].headers['content-type'], 'application/json');
      assert.match(String(hits[0].headers['x-webflow-timestamp']), /^\d{13}$/);
      assert.ok(Math.abs(Number(hits[0].headers['x-webflow-timestamp']) - Date.now()) < 60_000, `${t}: timestamp is now`);
      assert.match(String(hits[0].headers['x-webflow-signature']), /^[0-9a-f]{64}$/);
      assert.equal(await verify(hits[0]), true, `${t}: the SDK verifies the signature`);
      assert.equal(await verify(hits[0], 'another-secret'), false, `${t}: another secret does not verify`);
      got[t] = envelope(hits[0]);
      assert.equal(got[t].triggerType, t);
      assertShape(t, got[t]);
    }

    const p = (t: Trigger) => got[t].payload;
    for (const t of [
      'collection_item_created',
      'collection_item_changed',
      'collection_item_published',
      'collection_item_unpublished',
      'collection_item_deleted',
    ] as const) {
      assert.deepEqual([p(t).id, p(t).collectionId, p(t).siteId, p(t).workspaceId], [item.id, blog.id, site.id, 'ws-maple'], t);
    }
    assert.equal((p('collection_item_created').fieldData as { name: string }).name, 'Launch');
    assert.equal((p('collection_item_changed').fieldData as { name: string }).name, 'Launch day');
    assert.equal(typeof p('collection_item_published').lastPublished, 'string');
    assert.equal(p('collection_item_unpublished').lastPublished, null);
    assert.deepEqual(p('page_metadata_updated'), {
      siteId: site.id,
      pageId: home.id,
      pageTitle: 'Home',
      publishedPath: '/',
      lastUpdated: home.lastUpdated,
    });
    assert.deepEqual(p('site_publish').domains, ['www.maple.test', 'maple-studio.sim.test']);
    assert.equal(p('site_publish').siteId, site.id);
    assert.deepEqual(
      [p('page_created').pageId, p('page_created').pageTitle, p('page_created').publishedPath],
      [about.id, 'About', '/about'],
    );
    assert.deepEqual([p('page_deleted').pageId, p('page_deleted').publishedPath], [about.id, '/about']);
    assert.equal(typeof p('page_deleted').deletedOn, 'string');
    const f = p('form_submission');
    assert.deepEqual(
      [f.name, f.siteId, f.id, f.formId, f.formElementId, f.submittedAt, f.pageId, f.publishedPath, f.pageUrl],
      ['Contact', site.id, submission.id, form.id, form.formElementId, submission.dateSubmitted, home.id, '/', 'https://www.maple.test/'],
    );
    assert.deepEqual(f.data, { Name: 'Ada', Email: 'ada@example.test' });
    assert.deepEqual(
      (f.schema as Array<{ fieldName: string; fieldType: string }>).map((x) => [x.fieldName, x.fieldType]),
      [
        ['Name', 'FormTextInput'],
        ['Email', 'FormTextInput'],
      ],
    );
    const c = p('comment_created');
    assert.deepEqual([c.threadId, c.type, c.content, c.pageId, c.siteId], [thread.id, 'thread', 'Typo in the hero', home.id, site.id]);

    // The submission is the one the forms API lists.
    const listed = await expectStatus(api(`/forms/${form.id}/submissions`), 200);
    assert.deepEqual(
      (listed.formSubmissions as Array<{ id: string }>).map((x) => x.id),
      [submission.id],
    );
    const log = sim.webhookDeliveries();
    assert.equal(log.length, 11);
    assert.ok(log.every((d) => d.signed && d.attempt === 1 && d.status === 200));
  });

  it('the bulk item, bulk update, publish, unpublish, bulk page metadata and comment reply routes fire too (one item event per locale record)', async () => {
    s = await setup();
    const { sim, site, blog, home, api } = s;
    for (const t of ['collection_item_created', 'collection_item_changed', 'collection_item_published', 'collection_item_unpublished'])
      await s.register(t, `/hooks/${t}`);
    await s.register('page_metadata_updated', '/hooks/meta');
    await s.register('comment_created', '/hooks/comment');
    const fr = site.locales.secondary[0].cmsLocaleId;
    const bulk = await expectStatus(
      api(`/collections/${blog.id}/items/bulk`, {
        method: 'POST',
        body: { cmsLocaleIds: [site.locales.primary.cmsLocaleId, fr], fieldData: { name: 'Twin', slug: 'twin' } },
      }),
      202,
    );
    const seeded = blog.items.slice(0, 2).map((i) => i.id);
    await expectStatus(
      api(`/collections/${blog.id}/items`, { method: 'PATCH', body: { items: seeded.map((id) => ({ id, fieldData: { summary: 'x' } })) } }),
      200,
    );
    await expectStatus(api(`/collections/${blog.id}/items/publish`, { method: 'POST', body: { itemIds: seeded } }), 202);
    await expectStatus(api(`/collections/${blog.id}/items/live`, { method: 'DELETE', body: { items: seeded.map((id) => ({ id })) } }), 204);
    await expectStatus(api(`/collections/${blog.id}/items/live`, { method: 'DELETE', body: { items: seeded.map((id) => ({ id })) } }), 204);
    await expectStatus(api(`/sites/${site.id}/pages`, { method: 'PATCH', body: { pages: [{ id: home.id, title: 'Start' }] } }), 200);
    const thread = sim.addCommentThread(site.id, { pageId: home.id, content: 'Question' });
    const reply = await expectStatus(
      api(`/sites/${site.id}/comments/${thread.id}/replies`, { method: 'POST', body: { content: 'Answer' } }),
      200,
    );
    await sim.flushWebhooks();

    const created = s.at('/hooks/collection_item_created').map(envelope);
    assert.deepEqual(
      created.map((e) => [e.payload.id, e.payload.cmsLocaleId]).sort(),
      [
        [bulk.id, site.locales.primary.cmsLocaleId],
        [bulk.id, fr],
      ].sort(),
    );
    assert.deepEqual(ids(s.at('/hooks/collection_item_changed')), [...seeded].sort());
    assert.deepEqual(ids(s.at('/hooks/collection_item_published')), [...seeded].sort());
    assert.deepEqual(
      ids(s.at('/hooks/collection_item_unpublished')),
      [...seeded].sort(),
      'only records that were live fire collection_item_unpublished: the second unpublish fires nothing',
    );
    const meta = s.at('/hooks/meta').map(envelope);
    assert.deepEqual(
      meta.map((e) => [e.payload.pageId, e.payload.pageTitle]),
      [[home.id, 'Start']],
    );
    const comments = s.at('/hooks/comment').map(envelope);
    assert.deepEqual(
      comments.map((e) => [e.payload.type, e.payload.threadId, e.payload.commentId, e.payload.content]).sort(),
      [
        ['thread', thread.id, undefined, 'Question'],
        ['reply', thread.id, reply.id, 'Answer'],
      ].sort(),
    );
    for (const r of s.receiver.received) assert.equal(await verify(r), true);
  });

  it('a delivery leaves after the mutating request is answered: a receiver that never answers does not hold the request up', async () => {
    s = await setup({ webhookTimeoutMs: 1_500 });
    await s.register('site_publish', '/hooks/slow');
    s.receiver.script = ['hang'];
    const started = Date.now();
    await expectStatus(s.api(`/sites/${s.site.id}/publish`, { method: 'POST', body: { publishToWebflowSubdomain: true } }), 202);
    const answeredAfter = Date.now() - started;
    assert.ok(answeredAfter < 1_000, `the publish answered in ${answeredAfter} ms while the receiver hangs`);
    await s.receiver.waitFor(1);
    assert.deepEqual(s.sim.webhookDeliveries(), [], 'the first attempt is still open');
    await s.sim.flushWebhooks();
    const log = s.sim.webhookDeliveries();
    assert.deepEqual(
      log.map((d) => [d.attempt, d.status ?? d.error]),
      [
        [1, 'timeout'],
        [2, 200],
      ],
    );
  });

  it('site-token (webhooksAllowed) and dashboard (registerWebhookManually) registrations are delivered unsigned; a site token without the flag is refused 403', async () => {
    s = await setup();
    const { sim, site } = s;
    const plain = sim.issueToken({ scopes: ['sites:read', 'sites:write'] });
    const refused = await expectStatus(
      s.api(`/sites/${site.id}/webhooks`, {
        method: 'POST',
        token: plain,
        body: { triggerType: 'site_publish', url: `${s.receiver.base}/x` },
      }),
      403,
    );
    assert.equal(refused.code, 'forbidden');
    const allowed = sim.issueToken({ scopes: ['sites:read', 'sites:write'], webhooksAllowed: true });
    const tokenHook = await s.register('site_publish', '/hooks/site-token', { token: allowed });
    const manual = sim.registerWebhookManually(site.id, { triggerType: 'form_submission', url: `${s.receiver.base}/hooks/manual` });
    assert.equal('registeredBy' in manual, false, 'who registered stays inside the simulator');
    const listed = await expectStatus(s.api(`/sites/${site.id}/webhooks`), 200);
    assert.deepEqual(
      (listed.webhooks as Array<Record<string, unknown>>).map((h) => [h.id, h.triggerType, 'registeredBy' in h]),
      [
        [tokenHook, 'site_publish', false],
        [manual.id, 'form_submission', false],
      ],
    );
    await expectStatus(
      s.api(`/sites/${site.id}/publish`, { method: 'POST', token: allowed, body: { publishToWebflowSubdomain: true } }),
      202,
    );
    const form = sim.addForm(site.id, { displayName: 'Contact' });
    sim.submitForm(site.id, form.id, { Name: 'Bo' });
    await sim.flushWebhooks();
    assert.equal(s.at('/hooks/site-token').length, 1);
    assert.equal(s.at('/hooks/manual').length, 1);
    for (const r of s.receiver.received) {
      assert.equal(r.headers['x-webflow-signature'], undefined);
      assert.equal(r.headers['x-webflow-timestamp'], undefined);
    }
    assert.deepEqual(
      sim.webhookDeliveries().map((d) => d.signed),
      [false, false],
    );
  });

  it('the signature covers the exact UTF-8 bytes: a non-ASCII submission verifies, the same JSON with \\u escapes does not', async () => {
    s = await setup();
    await s.register('form_submission', '/hooks/form');
    const form = s.sim.addForm(s.site.id, { displayName: 'Kontakt — Anfrage', fields: ['Name', 'Nachricht'] });
    s.sim.submitForm(s.site.id, form.id, { Name: 'Zoë Ångström', Nachricht: '日本語のメッセージ 🎉 “quoted”' });
    await s.sim.flushWebhooks();
    const [r] = s.at('/hooks/form');
    const text = r.raw.toString('utf8');
    assert.ok(r.raw.includes(Buffer.from('Zoë Ångström', 'utf8')), 'sent as UTF-8, not escaped');
    assert.ok(r.raw.length > text.length, 'multi-byte characters');
    assert.equal(Number(r.headers['content-length']), r.raw.length);
    assert.equal(await verify(r), true);
    const escaped = text.replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
    assert.deepEqual(JSON.parse(escaped), JSON.parse(text), 'the same JSON value');
    assert.equal(
      await sdk.webhooks.verifySignature({ headers: r.headers as Record<string, string>, body: escaped, secret: APP.clientSecret }),
      false,
    );
    assert.equal(envelope(r).payload.name, 'Kontakt — Anfrage');
  });

  it('a non-2xx answer is retried 3 times at the configured interval with the same body, freshly signed, then never again', async () => {
    s = await setup({ webhookRetryIntervalMs: 120 });
    await s.register('site_publish', '/hooks/publish');
    s.receiver.script = [500, 502, 404, 500, 500];
    await expectStatus(s.api(`/sites/${s.site.id}/publish`, { method: 'POST', body: { publishToWebflowSubdomain: true } }), 202);
    await s.sim.flushWebhooks();
    const hits = s.at('/hooks/publish');
    assert.equal(hits.length, 4, 'the first attempt and 3 retries');
    for (let i = 1; i < hits.length; i++) {
      const gap = hits[i].at - hits[i - 1].at;
      assert.ok(gap >= 110, `retry ${i} came ${gap} ms after the previous attempt`);
      assert.ok(hits[i].raw.equals(hits[0].raw), 'the same body');
      assert.notEqual(hits[i].headers['x-webflow-timestamp'], hits[i - 1].headers['x-webflow-timestamp'], 'a fresh timestamp');
    }
    for (const r of hits) assert.equal(await verify(r), true);
    const log = s.sim.webhookDeliveries();
    assert.deepEqual(
      log.map((d) => [d.attempt, d.status]),
      [
        [1, 500],
        [2, 502],
        [3, 404],
        [4, 500],
      ],
    );
    assert.equal(new Set(log.map((d) => d.deliveryId)).size, 1);
    await sleep(400);
    assert.equal(s.at('/hooks/publish').length, 4, 'no fifth attempt');
  });

  it('a 2xx answer stops the retries', async () => {
    s = await setup();
    await s.register('site_publish', '/hooks/publish');
    s.receiver.script = [503, 204];
    await expectStatus(s.api(`/sites/${s.site.id}/publish`, { method: 'POST', body: { publishToWebflowSubdomain: true } }), 202);
    await s.sim.flushWebhooks();
    await sleep(200);
    assert.deepEqual(
      s.sim.webhookDeliveries().map((d) => [d.attempt, d.status]),
      [
        [1, 503],
        [2, 204],
      ],
    );
    assert.equal(s.at('/hooks/publish').length, 2);
  });

  it('a refused connection or a timeout is retried like a non-2xx; a URL off loopback is never dialled', async () => {
    s = await setup({ webhookTimeoutMs: 150 });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const dead = s.sim.registerWebhookManually(s.site.id, { triggerType: 'page_created', url: `http://127.0.0.1:${deadPort}/gone` });
    const remote = s.sim.registerWebhookManually(s.site.id, { triggerType: 'page_created', url: 'https://hooks.example.test/remote' });
    const slow = await s.register('page_created', '/hooks/slow');
    s.receiver.script = ['hang', 'hang', 'hang', 'hang'];
    s.sim.addPage(s.site.id, { title: 'Pricing' });
    await s.sim.flushWebhooks();
    const log = s.sim.webhookDeliveries();
    const of = (id: string) => log.filter((d) => d.webhookId === id).map((d) => [d.attempt, d.error]);
    assert.equal(of(dead.id).length, 4);
    assert.ok(of(dead.id).every(([, error]) => typeof error === 'string' && error !== 'timeout' && error !== 'not_loopback'));
    assert.deepEqual(of(slow), [
      [1, 'timeout'],
      [2, 'timeout'],
      [3, 'timeout'],
      [4, 'timeout'],
    ]);
    assert.deepEqual(of(remote.id), [[1, 'not_loopback']]);
  });

  it('the 76th registration of one trigger type on a site is refused with 400 validation_error; other trigger types still register', async () => {
    s = await setup();
    for (let i = 0; i < 74; i++)
      s.sim.registerWebhookManually(s.site.id, { triggerType: 'collection_item_changed', url: `${s.receiver.base}/m/${i}` });
    await s.register('collection_item_changed', '/hooks/75th');
    const refused = await expectStatus(
      s.api(`/sites/${s.site.id}/webhooks`, {
        method: 'POST',
        body: { triggerType: 'collection_item_changed', url: `${s.receiver.base}/hooks/76th` },
      }),
      400,
    );
    assert.deepEqual(refused, {
      code: 'validation_error',
      message: 'Validation Error: Maximum of 75 webhooks per trigger type reached',
      externalReference: null,
      details: [{ param: 'triggerType', description: 'collection_item_changed' }],
    });
    assert.throws(
      () => s.sim.registerWebhookManually(s.site.id, { triggerType: 'collection_item_changed', url: `${s.receiver.base}/m/76` }),
      /Maximum of 75/,
    );
    await s.register('collection_item_created', '/hooks/other');
    const listed = await expectStatus(s.api(`/sites/${s.site.id}/webhooks`), 200);
    assert.equal((listed.webhooks as Array<{ triggerType: string }>).filter((h) => h.triggerType === 'collection_item_changed').length, 75);
  });

  it('a form_submission registration filtered by {name} receives only that form; an unfiltered one receives every form', async () => {
    s = await setup();
    await s.register('form_submission', '/hooks/contact', { filter: { name: 'Contact' } });
    await s.register('form_submission', '/hooks/all');
    const contact = s.sim.addForm(s.site.id, { displayName: 'Contact' });
    const newsletter = s.sim.addForm(s.site.id, { displayName: 'Newsletter' });
    s.sim.submitForm(s.site.id, contact.id, { Email: 'a@example.test' });
    s.sim.submitForm(s.site.id, newsletter.id, { Email: 'b@example.test' });
    await s.sim.flushWebhooks();
    assert.deepEqual(
      s.at('/hooks/contact').map((r) => envelope(r).payload.name),
      ['Contact'],
    );
    assert.deepEqual(
      s
        .at('/hooks/all')
        .map((r) => envelope(r).payload.name)
        .sort(),
      ['Contact', 'Newsletter'],
    );
  });

  it('injected faults break verification on demand (bad signature, stale timestamp, unsigned) and redeliver replays an attempt verbatim or re-signed', async () => {
    s = await setup();
    await s.register('form_submission', '/hooks/form');
    const form = s.sim.addForm(s.site.id, { displayName: 'Contact' });
    const submit = async () => {
      s.sim.submitForm(s.site.id, form.id, { Email: 'c@example.test' });
      await s.sim.flushWebhooks();
      return s.receiver.received.at(-1)!;
    };
    s.sim.injectWebhookFault({ kind: 'bad_signature' });
    const bad = await submit();
    assert.match(String(bad.headers['x-webflow-signature']), /^[0-9a-f]{64}$/);
    assert.equal(await verify(bad), false);
    s.sim.injectWebhookFault({ kind: 'stale_timestamp', triggerType: 'form_submission' });
    const stale = await submit();
    assert.equal(await verify(stale), true, 'correctly signed over the stale timestamp');
    const skew = Date.now() - Number(stale.headers['x-webflow-timestamp']);
    assert.ok(skew >= 600_000 && skew < 610_000, `ten minutes old (${skew} ms)`);
    s.sim.injectWebhookFault({ kind: 'unsigned' });
    const unsigned = await submit();
    assert.equal(unsigned.headers['x-webflow-signature'], undefined);
    const good = await submit();
    assert.equal(await verify(good), true, 'faults are used up');
    assert.deepEqual(
      s.sim.webhookDeliveries().map((d) => [d.fault, d.signed, d.status]),
      [
        ['bad_signature', true, 200],
        ['stale_timestamp', true, 200],
        ['unsigned', false, 200],
        [undefined, true, 200],
      ],
    );

    const replay = await s.sim.redeliver(3);
    const replayed = s.receiver.received.at(-1)!;
    assert.ok(replayed.raw.equals(good.raw));
    assert.equal(replayed.headers['x-webflow-timestamp'], good.headers['x-webflow-timestamp']);
    assert.equal(replayed.headers['x-webflow-signature'], good.headers['x-webflow-signature']);
    assert.deepEqual([replay.redeliveryOf, replay.status, replay.deliveryId], [3, 200, s.sim.webhookDeliveries()[3].deliveryId]);
    await sleep(5);
    await s.sim.redeliver(3, { resign: true });
    const resent = s.receiver.received.at(-1)!;
    assert.ok(resent.raw.equals(good.raw));
    assert.ok(Number(resent.headers['x-webflow-timestamp']) > Number(good.headers['x-webflow-timestamp']));
    assert.equal(await verify(resent), true);
  });

  it('stop() cancels a pending retry: nothing more is sent and stop does not wait out the interval', async () => {
    s = await setup({ webhookRetryIntervalMs: 60_000 });
    await s.register('comment_created', '/hooks/comment');
    s.receiver.script = [500];
    s.sim.addCommentThread(s.site.id, { pageId: s.home.id, content: 'Hello' });
    await s.receiver.waitFor(1);
    while (s.sim.webhookDeliveries().length === 0) await sleep(5);
    const started = Date.now();
    await s.sim.stop();
    assert.ok(Date.now() - started < 2_000, 'stop returned at once');
    assert.deepEqual(
      s.sim.webhookDeliveries().map((d) => [d.attempt, d.status]),
      [[1, 500]],
    );
    assert.equal(s.receiver.received.length, 1);
  });
});
