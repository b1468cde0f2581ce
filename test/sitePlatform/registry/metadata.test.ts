import assert from 'node:assert/strict';
import { OPERATIONS, apiBaseFor, getOperation, platformPath } from '../../../src/sitePlatform/registry';

const shapeKeys = (schema: unknown): string[] => {
  const s = schema as { shape?: Record<string, unknown>; def?: { schema?: unknown }; _def?: { schema?: unknown } };
  if (s.shape) return Object.keys(s.shape);
  const inner = s.def?.schema ?? s._def?.schema;
  return inner ? shapeKeys(inner) : [];
};

describe('site-platform registry: metadata and parameter schemas', () => {
  it('every path placeholder is a parameter of the operation', () => {
    for (const op of OPERATIONS.filter((o) => o.platform)) {
      const keys = shapeKeys(op.params);
      for (const [, name] of op.platform!.path.matchAll(/\{(\w+)\}/g)) assert.ok(keys.includes(name), `${op.name}: ${name}`);
      assert.match(op.platform!.path, /^\/[a-z_\-/{}]+$/, op.name);
    }
  });

  it('gated operations accept confirm and localeId, and every lock target is a required parameter', () => {
    for (const op of OPERATIONS) {
      const keys = shapeKeys(op.params);
      if (op.confirmGated) assert.ok(keys.includes('confirm'), op.name);
      if (op.localeGated) assert.ok(keys.includes('localeId'), op.name);
      if (op.lockTarget) assert.ok(keys.includes(op.lockTarget), op.name);
    }
  });

  it('site publish, bulk writes, composites and the service action take no lock', () => {
    for (const name of [
      'site_publish',
      'cms_item_create_bulk',
      'cms_item_update_bulk',
      'cms_item_publish',
      'cms_item_unpublish_bulk',
      'asset_upload',
      'service_snippet_install',
      'page_schema_bulk_update',
      'project_cms_provider_set',
      'webhook_delete',
    ]) {
      assert.equal(getOperation(name)?.lockTarget, null, name);
    }
    assert.equal(getOperation('cms_item_update')?.lockTarget, 'item_id');
    assert.equal(getOperation('page_dom_update')?.lockTarget, 'page_id');
  });

  it('site-scoped operations require site_id', () => {
    const r = getOperation('cms_item_list')!.params.safeParse({ collection_id: 'c1' });
    assert.equal(r.success, false);
    assert.ok(getOperation('cms_item_list')!.params.safeParse({ site_id: 's1', collection_id: 'c1', limit: '50' }).success);
  });

  it('schemas reject malformed parameters', () => {
    assert.equal(getOperation('cms_item_publish')!.params.safeParse({ site_id: 's', collection_id: 'c', itemIds: [] }).success, false);
    assert.equal(
      getOperation('page_dom_update')!.params.safeParse({ site_id: 's', page_id: 'p', localeId: 'l', nodes: [] }).success,
      false,
    );
    assert.equal(
      getOperation('script_register_inline')!.params.safeParse({ site_id: 's', sourceCode: 'x', version: 'v1', displayName: 'd' }).success,
      false,
    );
    assert.equal(getOperation('asset_upload')!.params.safeParse({ site_id: 's', fileName: 'a.png' }).success, false);
    assert.equal(getOperation('project_cms_provider_set')!.params.safeParse({ project_id: 'p', provider: 'site_platform' }).success, false);
    assert.ok(getOperation('project_cms_provider_set')!.params.safeParse({ project_id: 'p', provider: 'native', confirm: true }).success);
  });

  it('GET query strings parse: numbers coerce and "false" stays false', () => {
    const parsed = getOperation('page_dom_get')!.params.parse({
      site_id: 's',
      page_id: 'p',
      limit: '20',
      with_bindings: 'false',
    });
    assert.deepEqual(parsed, { site_id: 's', page_id: 'p', limit: 20, with_bindings: false });
    assert.equal(apiBaseFor(getOperation('page_dom_get')!, parsed), 'v2');
  });

  it('with_bindings moves page_dom_get and component_content_get to beta for that request only', () => {
    const dom = getOperation('page_dom_get')!;
    assert.equal(apiBaseFor(dom, { with_bindings: true }), 'beta');
    assert.equal(apiBaseFor(dom, {}), 'v2');
    assert.equal(apiBaseFor(getOperation('component_content_get')!, { with_bindings: true }), 'beta');
    assert.equal(apiBaseFor(getOperation('cms_item_list')!, { with_bindings: true }), 'v2');
    assert.equal(apiBaseFor(getOperation('llms_txt_get')!, {}), 'beta');
    assert.equal(apiBaseFor(getOperation('project_cms_provider_set')!, {}), null);
  });

  it('fills path placeholders, encoded, and refuses a missing one', () => {
    const op = getOperation('cms_item_get')!;
    assert.equal(platformPath(op, { site_id: 's', collection_id: 'c/1', item_id: 'i' }), '/collections/c%2F1/items/i');
    assert.throws(() => platformPath(op, { collection_id: 'c' }));
  });
});
