/**
 * One sample request per registry operation, run in table order against a seeded simulator site: reads first where a
 * later write changes what they see, every delete aimed at something made for it (by seeding or by an earlier create
 * in the table, whose answer `from(action)` hands on).
 */
import { randomBytes } from 'node:crypto';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { addClient, authorize, openCallback, registerClient, type SiteWorld } from '../connections/fixtures';

/**
 * Left out on purpose: project_cms_provider_set, the service action that never calls the platform (its tests are in
 * dashboard.test.ts and the publish-to-site tests). Composites are sampled here by their first platform call; their
 * own steps are proved in composites.test.ts.
 */
export const NOT_SAMPLED = new Set(['project_cms_provider_set']);

export interface SampleSite {
  siteId: string;
  /** A secondary locale id (`fr`), for the locale-gated writes. */
  frLocaleId: string;
  pageId: string;
  collectionId: string;
  /** Items: one to edit and publish, one live item to unpublish. */
  itemId: string;
  liveItemId: string;
  skuCollectionId: string;
  componentId: string;
  assetId: string;
  doomedAssetId: string;
  formId: string;
  submissionId: string;
  doomedSubmissionId: string;
  threadId: string;
  orderId: string;
  userEmail: string;
}

export interface SampleTenant {
  account: TestAccount;
  site: SampleSite;
}

/**
 * A site with something of every family; `enterprise` sets the plan flag the site-configuration endpoints check and
 * an Enterprise custom limit high enough that every sample runs in one minute (the 60 and 120 budgets have their own
 * tests in test/sitePlatform/rules/limits.test.ts).
 */
export function seedSampleSite(world: SiteWorld, enterprise: boolean): SampleSite {
  const { sim } = world;
  const site = sim.addSite({
    id: `site_${randomBytes(6).toString('hex')}`,
    displayName: `Every op ${randomBytes(2).toString('hex')}`,
    plan: 120,
    ...(enterprise ? { rateLimitPerMinute: 1_000 } : {}),
    secondaryLocales: ['fr'],
    customDomains: ['www.every.example.test'],
    enterprise,
    ecommerce: true,
  });
  // Forms are readable only after a first publish.
  site.lastPublished = new Date().toISOString();
  const page = sim.addPage(site.id, { title: 'Home' });
  const collection = sim.addCollection(site.id, { displayName: `Posts ${randomBytes(2).toString('hex')}`, singularName: 'Post' });
  const [item, live] = sim.addItems(collection.id, [{}, { published: true }]);
  const skus = sim.addCollection(site.id, { displayName: 'SKUs', singularName: 'SKU' });
  const component = sim.addComponent(site.id, { name: 'Hero', properties: { Heading: 'Welcome' } });
  const form = sim.addForm(site.id, { displayName: 'Contact', pageId: page.id });
  const submission = sim.addSubmission(site.id, form.id, { Name: 'Ada' });
  const doomedSubmission = sim.addSubmission(site.id, form.id, { Name: 'Spam' });
  const thread = sim.addCommentThread(site.id, { pageId: page.id, content: 'Is this heading right?' });
  return {
    siteId: site.id,
    frLocaleId: site.locales.secondary[0].id,
    pageId: page.id,
    collectionId: collection.id,
    itemId: item.id,
    liveItemId: live.id,
    skuCollectionId: skus.id,
    componentId: component.id,
    assetId: sim.addAsset(site.id, { fileName: 'logo.png' }).id,
    doomedAssetId: sim.addAsset(site.id, { fileName: 'old.png' }).id,
    formId: form.id,
    submissionId: submission.id,
    doomedSubmissionId: doomedSubmission.id,
    threadId: thread.id,
    orderId: sim.addOrder(site.id).orderId,
    userEmail: sim.setUser({}).email,
  };
}

/** A fresh account connected by OAuth (so OAuth-only operations pass) to a freshly seeded site. */
export async function sampleTenant(world: SiteWorld, enterprise: boolean): Promise<SampleTenant> {
  const account = await newAccount();
  const site = seedSampleSite(world, enterprise);
  await registerClient(world, account, addClient(world, [site.siteId]));
  const connected = await openCallback(await authorize(world, account, { intent: 'site_account_connect' }));
  if (connected.status !== 200) throw new Error(`OAuth connect failed: ${connected.status} ${connected.text}`);
  return { account, site };
}

/** The answer (`result`) of an earlier operation of the table. */
export type From = (action: string) => any;
type Params = (s: SampleSite, from: From) => Record<string, unknown>;

export interface Sample {
  action: string;
  params: Params;
}

const s = (action: string, params: Params): Sample => ({ action, params });
const site = (x: SampleSite) => ({ site_id: x.siteId });
const col = (x: SampleSite) => ({ site_id: x.siteId, collection_id: x.collectionId });
const page = (x: SampleSite) => ({ site_id: x.siteId, page_id: x.pageId });
const comp = (x: SampleSite) => ({ site_id: x.siteId, component_id: x.componentId });
const thread = (x: SampleSite) => ({ site_id: x.siteId, comment_thread_id: x.threadId });
const order = (x: SampleSite) => ({ site_id: x.siteId, order_id: x.orderId });
const product = (x: SampleSite, from: From) => ({ site_id: x.siteId, product_id: from('product_create').product.id });
const robotsRule = (kind: 'allows' | 'disallows', path: string) => ({ rules: [{ userAgent: '*', [kind]: [path] }] });

export const SAMPLES: readonly Sample[] = [
  s('token_introspect', () => ({})),
  s('token_authorized_by', () => ({})),

  s('site_list', () => ({})),
  s('site_get', site),
  s('site_domains_list', site),
  s('site_publish', (x) => ({ ...site(x), publishToWebflowSubdomain: true })),
  s('activity_log_list', (x) => ({ ...site(x), limit: 10 })),

  s('webhook_list', site),
  s('webhook_create', (x) => ({ ...site(x), triggerType: 'collection_item_created', url: 'https://hooks.example.test/every-op' })),
  s('webhook_get', (x, from) => ({ ...site(x), webhook_id: from('webhook_create').id })),
  s('webhook_update', (x, from) => ({ ...site(x), webhook_id: from('webhook_create').id, url: 'https://hooks.example.test/every-op-2' })),
  // webhook_update replaces the registration: the one left to delete is the replacement.
  s('webhook_delete', (x, from) => ({ ...site(x), webhook_id: from('webhook_update').id })),

  s('page_list', (x) => ({ ...site(x), localeId: x.frLocaleId, limit: 10 })),
  s('page_query', (x) => ({ ...site(x), query: 'home' })),
  s('page_get', page),
  s('page_metadata_update', (x) => ({ ...page(x), seo: { title: 'Home | Every op', description: 'The home page' } })),
  s('page_metadata_bulk_update', (x) => ({ ...site(x), pages: [{ id: x.pageId, localeId: x.frLocaleId, title: 'Accueil' }] })),
  s('page_dom_get', (x) => ({ ...page(x), localeId: x.frLocaleId })),
  s('page_dom_update', (x) => ({ ...page(x), localeId: x.frLocaleId, nodes: [{ nodeId: `${x.pageId}-heading`, text: 'Bonjour' }] })),
  s('page_schema_get', page),
  s('page_schema_update', (x) => ({
    ...page(x),
    jsonLdSchema: { '@context': 'https://schema.org', '@type': 'Organization', name: 'Every op' },
  })),
  s('page_schema_bulk_get', (x) => ({ ...site(x), pages: [{ id: x.pageId }, { id: x.pageId, localeId: x.frLocaleId }] })),
  s('page_schema_bulk_update', (x) => ({ ...site(x), pages: [{ id: x.pageId, localeId: x.frLocaleId, jsonLdSchema: null }] })),

  s('component_list', site),
  s('component_content_get', comp),
  s('component_content_update', (x) => ({
    ...comp(x),
    localeId: x.frLocaleId,
    nodes: [{ nodeId: `${x.componentId}-node-1`, text: 'Salut' }],
  })),
  s('component_properties_get', (x) => ({ ...comp(x), localeId: x.frLocaleId })),
  s('component_properties_update', (x) => ({
    ...comp(x),
    localeId: x.frLocaleId,
    properties: [{ propertyId: `${x.componentId}-prop-1`, text: 'Bienvenue' }],
  })),

  s('script_list', site),
  s('script_register_hosted', (x) => ({
    ...site(x),
    displayName: 'Hosted Widget',
    hostedLocation: 'https://cdn.example.test/widget.js',
    integrityHash: 'sha384-abc123',
    version: '1.0.0',
  })),
  s('script_register_inline', (x) => ({ ...site(x), displayName: 'Inline Widget', sourceCode: 'console.log("hi")', version: '1.0.0' })),
  s('site_customcode_get', site),
  s('site_customcode_upsert', (x, from) => ({
    ...site(x),
    scripts: [{ id: from('script_register_inline').id, version: '1.0.0', location: 'footer' }],
  })),
  s('site_customcode_blocks_list', site),
  s('service_snippet_install', (x) => ({ ...site(x), location: 'footer' })),
  s('service_snippet_remove', site),
  s('site_customcode_delete', site),
  s('page_customcode_get', page),
  s('page_customcode_upsert', (x, from) => ({
    ...page(x),
    scripts: [{ id: from('script_register_hosted').id, version: '1.0.0', location: 'header' }],
  })),
  s('page_customcode_delete', page),

  s('google_tag_list', site),
  s('google_tag_upsert', (x) => ({ ...site(x), googleTagIds: [{ tagId: 'G-EVERY123', displayName: 'Analytics' }] })),
  s('google_tag_delete', site),

  s('cms_collection_list', site),
  s('cms_collection_get', col),
  s('cms_collection_create', (x) => ({
    ...site(x),
    displayName: 'Scratch',
    singularName: 'Scratch item',
    fields: [{ type: 'PlainText', displayName: 'Note' }],
  })),
  s('cms_field_create', (x) => ({ ...col(x), type: 'PlainText', displayName: 'Subtitle' })),
  s('cms_field_update', (x, from) => ({ ...col(x), field_id: from('cms_field_create').id, helpText: 'Shown under the title' })),
  s('cms_field_delete', (x, from) => ({ ...col(x), field_id: from('cms_field_create').id })),
  s('cms_collection_delete', (x, from) => ({ ...site(x), collection_id: from('cms_collection_create').id })),
  s('cms_item_list', (x) => ({ ...col(x), limit: 10, sortBy: 'name' })),
  s('cms_item_list_live', col),
  s('cms_item_get', (x) => ({ ...col(x), item_id: x.itemId })),
  s('cms_item_get_live', (x) => ({ ...col(x), item_id: x.liveItemId })),
  s('cms_item_create', (x) => ({ ...col(x), isDraft: true, fieldData: { name: 'Fresh post', slug: 'fresh-post' } })),
  s('cms_item_create_bulk', (x) => ({ ...col(x), fieldData: [{ name: 'Bulk post one' }, { name: 'Bulk post two' }] })),
  s('cms_item_update', (x) => ({ ...col(x), item_id: x.itemId, fieldData: { name: 'Edited post' } })),
  s('cms_item_update_bulk', (x) => ({ ...col(x), items: [{ id: x.itemId, fieldData: { name: 'Edited again' } }] })),
  s('cms_item_publish', (x) => ({ ...col(x), itemIds: [x.itemId] })),
  s('cms_item_unpublish', (x) => ({ ...col(x), item_id: x.liveItemId })),
  s('cms_item_unpublish_bulk', (x) => ({ ...col(x), items: [{ id: x.itemId }] })),
  s('cms_item_delete', (x, from) => ({ ...col(x), item_id: from('cms_item_create').id })),

  s('asset_list', site),
  s('asset_get', (x) => ({ ...site(x), asset_id: x.assetId })),
  s('asset_update', (x) => ({ ...site(x), asset_id: x.assetId, altText: 'The logo' })),
  s('asset_upload', (x) => ({
    ...site(x),
    fileName: 'pixel.gif',
    content_base64: 'R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==',
  })),
  s('asset_delete', (x) => ({ ...site(x), asset_id: x.doomedAssetId })),
  s('asset_folder_list', site),
  s('asset_folder_create', (x) => ({ ...site(x), displayName: 'Brand' })),
  s('asset_folder_get', (x, from) => ({ ...site(x), asset_folder_id: from('asset_folder_create').id })),

  s('form_list', site),
  s('form_get', (x) => ({ ...site(x), form_id: x.formId })),
  s('form_submission_list', (x) => ({ ...site(x), form_id: x.formId })),
  s('form_submission_list_by_site', (x) => ({ ...site(x), elementId: x.formId })),
  s('form_submission_get', (x) => ({ ...site(x), form_submission_id: x.submissionId })),
  s('form_submission_update', (x) => ({ ...site(x), form_submission_id: x.submissionId, formSubmissionData: { Name: 'Ada Lovelace' } })),
  s('form_submission_delete', (x) => ({ ...site(x), form_submission_id: x.doomedSubmissionId })),

  s('comment_thread_list', site),
  s('comment_thread_get', thread),
  s('comment_reply_list', thread),
  s('comment_reply_create', (x) => ({ ...thread(x), content: 'Fixed, thanks.' })),
  s('comment_thread_resolve', (x) => ({ ...thread(x), resolved: true })),
  s('comment_user_search', (x) => ({ ...site(x), email: x.userEmail })),

  s('product_list', site),
  s('product_create', (x) => ({
    ...site(x),
    publishStatus: 'staging',
    product: { fieldData: { name: 'Mug' } },
    sku: { fieldData: { name: 'Mug', price: { value: 1200, unit: 'USD' } } },
  })),
  s('product_get', product),
  s('product_update', (x, from) => ({ ...product(x, from), product: { fieldData: { name: 'Big mug' } } })),
  s('sku_create', (x, from) => ({ ...product(x, from), skus: [{ fieldData: { name: 'Mug XL', price: { value: 1500, unit: 'USD' } } }] })),
  s('sku_update', (x, from) => ({ ...product(x, from), sku_id: from('product_create').skus[0].id, sku: { fieldData: { name: 'Mug S' } } })),
  s('inventory_get', (x, from) => ({ ...site(x), collection_id: x.skuCollectionId, item_id: from('product_create').skus[0].id })),
  s('inventory_update', (x, from) => ({
    ...site(x),
    collection_id: x.skuCollectionId,
    item_id: from('product_create').skus[0].id,
    inventoryType: 'finite',
    quantity: 5,
  })),
  s('order_list', (x) => ({ ...site(x), status: 'unfulfilled' })),
  s('order_get', order),
  s('order_update', (x) => ({ ...order(x), comment: 'Gift wrap, please' })),
  s('order_fulfill', (x) => ({ ...order(x), sendOrderFulfilledEmail: false })),
  s('order_unfulfill', order),
  s('order_refund', (x) => ({ ...order(x), reason: 'requested' })),

  s('redirect_list', site),
  s('redirect_create', (x) => ({ ...site(x), fromUrl: '/old-home', toUrl: '/' })),
  s('redirect_update', (x, from) => ({ ...site(x), redirect_id: from('redirect_create').id, toUrl: '/home' })),
  s('redirect_delete', (x, from) => ({ ...site(x), redirect_id: from('redirect_create').id })),
  s('robots_get', site),
  s('robots_replace', (x) => ({
    ...site(x),
    ...robotsRule('disallows', '/private'),
    sitemap: 'https://www.every.example.test/sitemap.xml',
  })),
  s('robots_merge', (x) => ({ ...site(x), ...robotsRule('allows', '/public') })),
  s('robots_delete', site),
  s('wellknown_create', (x) => ({
    ...site(x),
    fileName: 'apple-app-site-association',
    fileData: '{"applinks":{}}',
    contentType: 'application/json',
  })),
  s('wellknown_delete', (x) => ({ ...site(x), fileNames: ['apple-app-site-association'] })),
  s('llms_txt_get', site),
  s('llms_txt_update', (x) => ({ ...site(x), content: '# Every op\n\n- [Home](/)' })),
  s('llms_txt_delete', site),
];
