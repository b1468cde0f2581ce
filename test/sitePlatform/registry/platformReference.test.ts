import assert from 'node:assert/strict';
import { Webflow } from 'webflow-api';
import { OPERATIONS, getOperation } from '../../../src/sitePlatform/registry';

/** What the platform's reference (the official SDK's types) lets a client create, with the metadata each kind needs. */
const CREATABLE: Array<Record<string, unknown>> = [
  ...Object.values(Webflow.StaticFieldType).map((type) => ({ type })),
  { type: 'Option', metadata: { options: [{ name: 'Red' }] } },
  ...Object.values(Webflow.ReferenceFieldType).map((type) => ({ type, metadata: { collectionId: 'c-target' } })),
];

const fieldParams = (field: Record<string, unknown>) => ({ site_id: 's1', collection_id: 'c1', displayName: 'A field', ...field });
const collectionParams = (field: Record<string, unknown>) => ({
  site_id: 's1',
  displayName: 'Things',
  singularName: 'Thing',
  fields: [{ displayName: 'A field', ...field }],
});

describe('site-platform registry agrees with the platform reference (webflow-api types)', () => {
  it("CMS field types are the reference's: every creatable type (VideoLink included) is accepted, Video and the read-only ExtFileRef are refused", () => {
    assert.ok(Object.values(Webflow.FieldType).includes('VideoLink') && !Object.values(Webflow.FieldType).includes('Video' as never));
    for (const name of ['cms_field_create', 'cms_collection_create'] as const) {
      const params = name === 'cms_field_create' ? fieldParams : collectionParams;
      const op = getOperation(name)!;
      for (const field of CREATABLE) assert.ok(op.params.safeParse(params(field)).success, `${name} refuses ${String(field.type)}`);
      for (const type of ['Video', 'ExtFileRef'])
        assert.equal(op.params.safeParse(params({ type })).success, false, `${name} accepts ${type}`);
    }
  });

  it('an Option field needs its options and a Reference field its target collection, as the reference requires', () => {
    const op = getOperation('cms_field_create')!;
    for (const type of ['Option', 'Reference', 'MultiReference'])
      assert.equal(op.params.safeParse(fieldParams({ type })).success, false, type);
  });

  it("webhook trigger types are the reference's", () => {
    const create = getOperation('webhook_create')!;
    const hook = (triggerType: string) => ({ site_id: 's1', triggerType, url: 'https://hooks.example.test/a' });
    for (const trigger of Object.values(Webflow.TriggerType)) assert.ok(create.params.safeParse(hook(trigger)).success, trigger);
    assert.equal(create.params.safeParse(hook('user_account_added')).success, false);
  });

  it("a webhook filter is the reference's { name } and only for the form_submission trigger", () => {
    const create = getOperation('webhook_create')!;
    const hook = (triggerType: string, filter: unknown) => ({ site_id: 's1', triggerType, url: 'https://hooks.example.test/a', filter });
    assert.ok(create.params.safeParse(hook('form_submission', { name: 'Contact' })).success);
    assert.equal(create.params.safeParse(hook('form_submission', { collectionId: 'c1' })).success, false, 'a key the reference lacks');
    assert.equal(create.params.safeParse(hook('collection_item_created', { name: 'Blog' })).success, false, 'a filter on another trigger');
    const update = getOperation('webhook_update')!;
    assert.equal(update.params.safeParse({ site_id: 's1', webhook_id: 'w1', filter: { form: 'Contact' } }).success, false);
  });

  it('no operation calls PATCH /webhooks/{id}: the reference has no webhook update (list, create, get, delete only)', () => {
    const calls = OPERATIONS.filter((op) => op.platform?.path.startsWith('/webhooks/')).map(
      (op) => `${op.platform!.method} ${op.platform!.path}`,
    );
    assert.deepEqual([...new Set(calls)].sort(), ['DELETE /webhooks/{webhook_id}', 'GET /webhooks/{webhook_id}']);
  });
});
