import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { WebflowClient } from 'webflow-api';
import { extendedWorld, type ExtendedWorld } from '../../sandbox/sitePlatform/extended';
import { APP, exchange } from '../../sandbox/sitePlatform/fixtures';
import { sdkClient, serializers as S, strictly } from './officialSdk';

describe('site platform simulator driven by the official SDK (webflow-api), answers checked by its serializers in strict mode', () => {
  let w: ExtendedWorld;
  let sdk: WebflowClient;
  const siteId = () => w.site.id;

  before(async () => {
    w = await extendedWorld({ enterprise: true, ecommerce: true });
    sdk = sdkClient(w.sim, w.oauthToken);
    // Shapes are under test here, not the per-minute limit (limits.test.ts covers it); one token makes ~100 calls.
    w.sim.liftRateLimit();
  });
  after(async () => {
    await w.sim.stop();
  });

  it("OAuth: the SDK's authorize URL, sent to the simulator, redirects back with state and a code the token endpoint exchanges", async () => {
    const url = new URL(
      WebflowClient.authorizeURL({
        clientId: APP.clientId,
        state: 'sdk-state',
        redirectUri: APP.redirectUri,
        scope: ['sites:read', 'cms:read'],
      }),
    );
    const res = await fetch(`${w.sim.baseUrl}${url.pathname}${url.search}`, { redirect: 'manual' });
    assert.equal(res.status, 302);
    const back = new URL(res.headers.get('location')!);
    assert.equal(back.searchParams.get('state'), 'sdk-state');
    const token = (await (await exchange(w.sim, back.searchParams.get('code')!)).json()) as { access_token?: string };
    assert.ok(token.access_token);
  });

  it('token: introspect and authorized_by', async () => {
    await strictly('token.introspect', S.Authorization, sdk.token.introspect());
    await strictly('token.authorizedBy', S.AuthorizedUser, sdk.token.authorizedBy());
  });

  it('sites: list, get, custom domains, publish', async () => {
    const sites = await strictly('sites.list', S.Sites, sdk.sites.list());
    assert.deepEqual(
      sites.sites?.map((s) => s.id),
      [siteId()],
    );
    await strictly('sites.get', S.Site, sdk.sites.get(siteId()));
    const domains = await strictly('sites.getCustomDomain', S.Domains, sdk.sites.getCustomDomain(siteId()));
    await strictly(
      'sites.publish',
      S.SitesPublishResponse,
      sdk.sites.publish(siteId(), { customDomains: domains.customDomains?.map((d) => d.id!) ?? [] }),
    );
    w.clock.advance(61_000);
  });

  it('pages: list, metadata get and update, static content', async () => {
    const pages = await strictly('pages.list', S.PageList, sdk.pages.list(siteId()));
    const pageId = pages.pages![0].id!;
    await strictly('pages.getMetadata', S.Page, sdk.pages.getMetadata(pageId));
    await strictly('pages.updatePageSettings', S.Page, sdk.pages.updatePageSettings(pageId, { seo: { title: 'Home, renamed' } }));
    await strictly('pages.getContent', S.Dom, sdk.pages.getContent(pageId));
  });

  it('components: list, content and properties', async () => {
    const component = w.sim.addComponent(siteId(), { name: 'Hero' });
    await strictly('components.list', S.ComponentList, sdk.components.list(siteId()));
    await strictly('components.getContent', S.ComponentDom, sdk.components.getContent(siteId(), component.id));
    await strictly('components.getProperties', S.ComponentProperties, sdk.components.getProperties(siteId(), component.id));
  });

  it('collections: created with every field type the reference lets a client create (VideoLink included), listed, read with a seeded ExtFileRef field', async () => {
    const staticTypes = [
      'Color',
      'DateTime',
      'Email',
      'File',
      'Image',
      'Link',
      'MultiImage',
      'Number',
      'Phone',
      'PlainText',
      'RichText',
      'Switch',
      'VideoLink',
    ] as const;
    const created = await strictly(
      'collections.create',
      S.Collection,
      sdk.collections.create(siteId(), {
        displayName: 'Everything',
        singularName: 'Thing',
        fields: [
          ...staticTypes.map((type) => ({ type, displayName: `A ${type} field` })),
          { type: 'Option' as const, displayName: 'Colour choice', metadata: { options: [{ name: 'Red' }, { name: 'Blue' }] } },
          { type: 'Reference' as const, displayName: 'Main post', metadata: { collectionId: w.blog.id } },
          { type: 'MultiReference' as const, displayName: 'Related posts', metadata: { collectionId: w.blog.id } },
        ],
      }),
    );
    assert.deepEqual(
      created.fields
        .map((f) => f.type)
        .filter((t) => t !== 'PlainText')
        .sort(),
      [...staticTypes.filter((t) => t !== 'PlainText'), 'Option', 'Reference', 'MultiReference'].sort(),
    );
    await strictly(
      'collections.fields.create',
      S.FieldCreate,
      sdk.collections.fields.create(created.id, { type: 'VideoLink', displayName: 'Trailer' }),
    );
    for (const type of ['Video', 'ExtFileRef']) {
      await assert.rejects(
        sdk.collections.fields.create(created.id, { type: type as 'VideoLink', displayName: `Old ${type}` }),
        (e: { statusCode?: number; body?: { code?: string } }) => e.statusCode === 400 && e.body?.code === 'validation_error',
      );
    }
    assert.equal((await sdk.collections.get(created.id)).fields.length, created.fields.length + 1, 'a refused field changes nothing');
    const field = created.fields.find((f) => f.type === 'Email')!;
    await strictly(
      'collections.fields.update',
      S.Field,
      sdk.collections.fields.update(created.id, field.id, { helpText: 'Where to write' }),
    );
    await strictly('collections.list', S.CollectionList, sdk.collections.list(siteId()));
    const external = w.sim.addCollection(siteId(), { displayName: 'Downloads', fields: [{ slug: 'external-file', type: 'ExtFileRef' }] });
    const read = await strictly('collections.get', S.Collection, sdk.collections.get(external.id));
    assert.ok(read.fields.some((f) => f.type === 'ExtFileRef'));
  });

  it('items: create, list, get, update, publish, live reads, unpublish, delete', async () => {
    const c = w.blog.id;
    const item = await strictly(
      'items.createItem',
      S.CollectionItem,
      sdk.collections.items.createItem(c, { isDraft: false, fieldData: { name: 'Fresh post', slug: 'fresh-post' } }),
    );
    await strictly('items.listItems', S.CollectionItemList, sdk.collections.items.listItems(c));
    await strictly('items.getItem', S.CollectionItem, sdk.collections.items.getItem(c, item.id!));
    await strictly(
      'items.updateItem',
      S.CollectionItem,
      sdk.collections.items.updateItem(c, item.id!, { fieldData: { name: 'Fresh post, edited', slug: 'fresh-post' } }),
    );
    await strictly(
      'items.publishItem',
      S.collections.ItemsPublishItemResponse,
      sdk.collections.items.publishItem(c, { itemIds: [item.id!] }),
    );
    await strictly('items.listItemsLive', S.CollectionItemList, sdk.collections.items.listItemsLive(c));
    await strictly('items.getItemLive', S.CollectionItem, sdk.collections.items.getItemLive(c, item.id!));
    await sdk.collections.items.deleteItemLive(c, item.id!);
    await sdk.collections.items.deleteItem(c, item.id!);
  });

  it('items bulk create answers one item with its cmsLocaleIds, and keeps the item in every locale', async () => {
    const locales = [w.site.locales.primary.cmsLocaleId, ...w.site.locales.secondary.map((l) => l.cmsLocaleId)];
    const created = await strictly(
      'items.createItems',
      S.BulkCollectionItem,
      sdk.collections.items.createItems(w.blog.id, {
        cmsLocaleIds: locales,
        isDraft: false,
        fieldData: { name: 'In every language', slug: 'in-every-language' },
      }),
    );
    assert.ok(created.id);
    assert.deepEqual(created.cmsLocaleIds, locales);
    for (const cmsLocaleId of locales) {
      const got: { id?: string; cmsLocaleId?: string } = await strictly(
        'items.getItem',
        S.CollectionItem,
        sdk.collections.items.getItem(w.blog.id, created.id!, { cmsLocaleId }),
      );
      assert.deepEqual([got.id, got.cmsLocaleId], [created.id, cmsLocaleId]);
    }
  });

  it('assets: create (upload target), get, list, update, folders, delete', async () => {
    const upload = await strictly(
      'assets.create',
      S.AssetUpload,
      sdk.assets.create(siteId(), { fileName: 'logo.png', fileHash: createHash('md5').update('png').digest('hex') }),
    );
    await strictly('assets.get', S.Asset, sdk.assets.get(upload.id!));
    await strictly('assets.list', S.Assets, sdk.assets.list(siteId()));
    await strictly('assets.update', S.Asset, sdk.assets.update(upload.id!, { displayName: 'Logo' }));
    const folder = await strictly('assets.createFolder', S.AssetFolder, sdk.assets.createFolder(siteId(), { displayName: 'Brand' }));
    await strictly('assets.getFolder', S.AssetFolder, sdk.assets.getFolder(folder.id!));
    await strictly('assets.listFolders', S.AssetFolderList, sdk.assets.listFolders(siteId()));
    await sdk.assets.delete(upload.id!);
  });

  it('webhooks: create, list, get, delete (the SDK has no update)', async () => {
    const hook = await strictly(
      'webhooks.create',
      S.Webhook,
      sdk.webhooks.create(siteId(), { triggerType: 'collection_item_created', url: 'https://hooks.example.test/sdk' }),
    );
    const list = await strictly('webhooks.list', S.WebhookList, sdk.webhooks.list(siteId()));
    assert.ok(list.webhooks?.some((h) => h.id === hook.id));
    await strictly('webhooks.get', S.Webhook, sdk.webhooks.get(hook.id!));
    await sdk.webhooks.delete(hook.id!);
    assert.equal(typeof (sdk.webhooks as unknown as Record<string, unknown>).update, 'undefined');
    await assert.rejects(
      sdk.webhooks.create(siteId(), { triggerType: 'user_account_added' as 'site_publish', url: 'https://hooks.example.test/users' }),
      (e: { statusCode?: number }) => e.statusCode === 400,
      'a trigger the reference lacks is refused',
    );
    const formHook = await strictly(
      'webhooks.create (filtered)',
      S.Webhook,
      sdk.webhooks.create(siteId(), {
        triggerType: 'form_submission',
        url: 'https://hooks.example.test/form',
        filter: { name: 'Contact' },
      }),
    );
    assert.deepEqual(formHook.filter, { name: 'Contact' });
    await sdk.webhooks.delete(formHook.id!);
    const count = (await sdk.webhooks.list(siteId())).webhooks?.length;
    await assert.rejects(
      sdk.webhooks.create(siteId(), {
        triggerType: 'collection_item_created',
        url: 'https://hooks.example.test/x',
        filter: { name: 'Blog' },
      }),
      (e: { statusCode?: number; body?: { code?: string } }) => e.statusCode === 400 && e.body?.code === 'incompatible_webhook_filter',
      'a filter is for form_submission only',
    );
    assert.equal((await sdk.webhooks.list(siteId())).webhooks?.length, count, 'a refused webhook is not registered');
  });

  it('custom code: register scripts, list, apply to the site and a page, list blocks, remove', async () => {
    const inline = await strictly(
      'scripts.registerInline',
      S.CustomCodeInlineResponse,
      sdk.scripts.registerInline(siteId(), { displayName: 'Inline one', version: '1.0.0', sourceCode: 'console.log(1)' }),
    );
    await strictly(
      'scripts.registerHosted',
      S.CustomCodeHostedResponse,
      sdk.scripts.registerHosted(siteId(), {
        displayName: 'Hosted one',
        version: '1.0.0',
        hostedLocation: 'https://cdn.example.test/one.js',
        integrityHash: 'sha384-abc',
      }),
    );
    await strictly('scripts.list', S.RegisteredScriptList, sdk.scripts.list(siteId()));
    const apply = { scripts: [{ id: inline.id!, version: '1.0.0', location: 'header' as const }] };
    await strictly('sites.scripts.upsertCustomCode', S.ScriptApplyList, sdk.sites.scripts.upsertCustomCode(siteId(), apply));
    await strictly('sites.scripts.getCustomCode', S.ScriptApplyList, sdk.sites.scripts.getCustomCode(siteId()));
    const pageId = [...(await sdk.pages.list(siteId())).pages!][0].id!;
    await strictly('pages.scripts.upsertCustomCode', S.ScriptApplyList, sdk.pages.scripts.upsertCustomCode(pageId, apply));
    await strictly('pages.scripts.getCustomCode', S.ScriptApplyList, sdk.pages.scripts.getCustomCode(pageId));
    await strictly('sites.scripts.listCustomCodeBlocks', S.ListCustomCodeBlocks, sdk.sites.scripts.listCustomCodeBlocks(siteId()));
    await sdk.sites.scripts.deleteCustomCode(siteId());
    await sdk.pages.scripts.deleteCustomCode(pageId);
  });

  it('forms: list, get, submissions list, get and update (after the site was published)', async () => {
    const form = w.sim.addForm(siteId(), { displayName: 'Contact' });
    const submission = w.sim.addSubmission(siteId(), form.id, { Name: 'Ada', Email: 'ada@example.test' });
    await strictly('forms.list', S.FormList, sdk.forms.list(siteId()));
    await strictly('forms.get', S.Form, sdk.forms.get(form.id));
    await strictly('forms.listSubmissions', S.FormSubmissionList, sdk.forms.listSubmissions(form.id));
    await strictly('forms.getSubmission', S.FormSubmission, sdk.forms.getSubmission(submission.id));
    await strictly(
      'forms.updateSubmission',
      S.FormSubmission,
      sdk.forms.updateSubmission(submission.id, { formSubmissionData: { Name: 'Ada L.' } }),
    );
  });

  it('comments: thread list and get', async () => {
    const pageId = [...(await sdk.pages.list(siteId())).pages!][0].id!;
    const thread = w.sim.addCommentThread(siteId(), { pageId, content: 'Typo in the hero' });
    await strictly('sites.comments.listCommentThreads', S.CommentThreadList, sdk.sites.comments.listCommentThreads(siteId()));
    await strictly('sites.comments.getCommentThread', S.CommentThread, sdk.sites.comments.getCommentThread(siteId(), thread.threadId));
    await strictly(
      'sites.comments.listCommentReplies',
      S.CommentReplyList,
      sdk.sites.comments.listCommentReplies(siteId(), thread.threadId),
    );
  });

  it('ecommerce: products and SKUs, orders, inventory', async () => {
    const created = await strictly(
      'products.create',
      S.ProductAndSkUs,
      sdk.products.create(siteId(), {
        product: { fieldData: { name: 'Mug', slug: 'mug' } },
        sku: { fieldData: { name: 'Mug, blue', slug: 'mug-blue', price: { value: 1200, unit: 'EUR' } } },
      }),
    );
    const productId = created.product!.id!;
    await strictly('products.list', S.ProductAndSkUsList, sdk.products.list(siteId()));
    await strictly('products.get', S.ProductAndSkUs, sdk.products.get(siteId(), productId));
    await strictly(
      'products.update',
      S.Product,
      sdk.products.update(siteId(), productId, { product: { fieldData: { name: 'Big mug', slug: 'mug' } } }),
    );
    const skus = await strictly(
      'products.createSku',
      S.ProductsCreateSkuResponse,
      sdk.products.createSku(siteId(), productId, {
        skus: [{ fieldData: { name: 'Mug, red', slug: 'mug-red', price: { value: 1200, unit: 'EUR' } } }],
      }),
    );
    const skuId = skus.skus![0].id!;
    await strictly(
      'products.updateSku',
      S.Sku,
      sdk.products.updateSku(siteId(), productId, skuId, {
        sku: { fieldData: { name: 'Mug, crimson', slug: 'mug-red', price: { value: 1300, unit: 'EUR' } } },
      }),
    );
    const order = w.sim.addOrder(siteId(), { customer: 'Grace Hopper' });
    await strictly('orders.list', S.OrderList, sdk.orders.list(siteId()));
    await strictly('orders.get', S.Order, sdk.orders.get(siteId(), order.orderId));
    await strictly('orders.updateFulfill', S.Order, sdk.orders.updateFulfill(siteId(), order.orderId));
    await strictly('inventory.list', S.InventoryItem, sdk.inventory.list(w.blog.id, skuId));
  });

  it('secondary-locale content writes: page static content, component content and properties', async () => {
    const fr = w.site.locales.secondary[0].id;
    const pageId = [...(await sdk.pages.list(siteId())).pages!][0].id!;
    const dom = await sdk.pages.getContent(pageId);
    const nodeId = dom.nodes![0].id!;
    await strictly(
      'pages.updateStaticContent',
      S.UpdateStaticContentResponse,
      sdk.pages.updateStaticContent(pageId, { localeId: fr, nodes: [{ nodeId, text: 'Bonjour' }] }),
    );
    const component = w.sim.addComponent(siteId(), { name: 'Footer' });
    const content = await sdk.components.getContent(siteId(), component.id);
    await strictly(
      'components.updateContent',
      S.ComponentsUpdateContentResponse,
      sdk.components.updateContent(siteId(), component.id, { localeId: fr, nodes: [{ nodeId: content.nodes![0].id!, text: 'Pied' }] }),
    );
    const props = await sdk.components.getProperties(siteId(), component.id);
    await strictly(
      'components.updateProperties',
      S.ComponentsUpdatePropertiesResponse,
      sdk.components.updateProperties(siteId(), component.id, {
        localeId: fr,
        properties: [{ propertyId: props.properties![0].propertyId!, text: 'Titre' }],
      }),
    );
  });

  it('items in bulk: update several, list one secondary locale, unpublish several', async () => {
    const c = w.blog.id;
    const [a, b] = w.sim.addItems(c, 2);
    await strictly(
      'items.updateItems',
      S.collections.ItemsUpdateItemsResponse,
      sdk.collections.items.updateItems(c, {
        items: [
          { id: a.id, fieldData: { name: 'A edited', slug: a.fieldData.slug } },
          { id: b.id, fieldData: { name: 'B edited', slug: b.fieldData.slug } },
        ],
      }),
    );
    const fr = w.site.locales.secondary[0].cmsLocaleId;
    const inFrench = await strictly('items.listItems (fr)', S.CollectionItemList, sdk.collections.items.listItems(c, { cmsLocaleId: fr }));
    assert.ok((inFrench.items ?? []).every((i) => i.cmsLocaleId === fr));
    await sdk.collections.items.publishItem(c, { itemIds: [a.id, b.id] });
    await sdk.collections.items.deleteItemsLive(c, { items: [{ id: a.id }, { id: b.id }] });
    assert.equal(w.sim.item(c, a.id)?.lastPublished, null);
  });

  it('forms: a submission is deleted; orders are updated, unfulfilled and refunded; inventory is set', async () => {
    const form = w.sim.addForm(siteId(), { displayName: 'Newsletter' });
    const submission = w.sim.addSubmission(siteId(), form.id, { Email: 'grace@example.test' });
    await sdk.forms.deleteSubmission(submission.id);
    const order = w.sim.addOrder(siteId());
    await strictly('orders.update', S.Order, sdk.orders.update(siteId(), order.orderId, { comment: 'Gift wrap' }));
    await strictly('orders.updateFulfill', S.Order, sdk.orders.updateFulfill(siteId(), order.orderId));
    await strictly('orders.updateUnfulfill', S.Order, sdk.orders.updateUnfulfill(siteId(), order.orderId));
    await strictly('orders.refund', S.Order, sdk.orders.refund(siteId(), order.orderId, { reason: 'requested' }));
    const created = await sdk.products.create(siteId(), {
      product: { fieldData: { name: 'Cap', slug: 'cap' } },
      sku: { fieldData: { name: 'Cap', slug: 'cap-sku', price: { value: 900, unit: 'EUR' } } },
    });
    await strictly(
      'inventory.update',
      S.InventoryItem,
      sdk.inventory.update(w.blog.id, created.skus![0].id!, { inventoryType: 'finite', quantity: 4 }),
    );
  });

  it("error answers are the reference's Error body with one of its codes (not found, validation, missing scope)", async () => {
    const narrow = sdkClient(w.sim, w.sim.issueToken({ scopes: ['sites:read'] }));
    // Thunks: a call started before its turn would reject unobserved while an earlier one is awaited.
    const failures: Array<[string, () => Promise<unknown>, number]> = [
      ['sites.get (missing)', () => sdk.sites.get('0'.repeat(24)), 404],
      ['collections.get (missing)', () => sdk.collections.get('0'.repeat(24)), 404],
      ['items.getItem (missing)', () => sdk.collections.items.getItem(w.blog.id, '0'.repeat(24)), 404],
      ['redirects.create (invalid)', () => sdk.sites.redirects.create(siteId(), { fromUrl: 'no-slash', toUrl: '' }), 400],
      ['collections.list (missing scope)', () => narrow.collections.list(siteId()), 403],
    ];
    for (const [what, call, status] of failures) {
      const err = await call().then(
        () => assert.fail(`${what} answered 2xx`),
        (e: { statusCode?: number; body?: unknown }) => e,
      );
      assert.equal(err.statusCode, status, what);
      await strictly(what, S.Error_, Promise.resolve(err.body));
    }
  });

  it('enterprise site configuration: redirects, robots.txt, activity log', async () => {
    const redirect = await strictly(
      'sites.redirects.create',
      S.Redirect,
      sdk.sites.redirects.create(siteId(), { fromUrl: '/old', toUrl: '/new' }),
    );
    await strictly('sites.redirects.list', S.Redirects, sdk.sites.redirects.list(siteId()));
    await strictly('sites.redirects.delete', S.Redirects, sdk.sites.redirects.delete(siteId(), redirect.id!));
    await strictly(
      'sites.robotsTxt.put',
      S.Robots,
      sdk.sites.robotsTxt.put(siteId(), { rules: [{ userAgent: '*', disallows: ['/private'] }] }),
    );
    await strictly('sites.robotsTxt.get', S.Robots, sdk.sites.robotsTxt.get(siteId()));
    await strictly(
      'sites.robotsTxt.patch',
      S.Robots,
      sdk.sites.robotsTxt.patch(siteId(), { rules: [{ userAgent: 'GPTBot', disallows: ['/'] }] }),
    );
    const kept = await strictly('sites.redirects.create', S.Redirect, sdk.sites.redirects.create(siteId(), { fromUrl: '/a', toUrl: '/b' }));
    await strictly('sites.redirects.update', S.Redirect, sdk.sites.redirects.update(siteId(), kept.id!, { fromUrl: '/a', toUrl: '/c' }));
    await sdk.sites.wellKnown.put(siteId(), { fileName: 'security.txt', fileData: 'Contact: mailto:security@example.test' });
    await sdk.sites.wellKnown.delete(siteId(), { fileNames: ['security.txt'] });
    await strictly('sites.activityLogs.list', S.SiteActivityLogResponse, sdk.sites.activityLogs.list(siteId()));
  });
});
