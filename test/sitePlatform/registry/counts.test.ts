import assert from 'node:assert/strict';
import { OPERATIONS, getOperation } from '../../../src/sitePlatform/registry';

const names = (pick: (op: (typeof OPERATIONS)[number]) => boolean) =>
  OPERATIONS.filter(pick)
    .map((op) => op.name)
    .sort();

describe('site-platform registry: counts', () => {
  it('holds 111 uniquely named operations: 110 platform operations plus project_cms_provider_set', () => {
    assert.equal(OPERATIONS.length, 111);
    assert.equal(new Set(OPERATIONS.map((op) => op.name)).size, 111);
    assert.deepEqual(
      names((op) => op.platform === null),
      ['project_cms_provider_set'],
    );
    assert.equal(getOperation('project_cms_provider_set')?.family, 'service');
  });

  it('15 operations require OAuth: nine custom-code, three page custom-code, webhook_create, webhook_update, token_authorized_by', () => {
    const oauth = names((op) => op.requiresOAuth);
    assert.equal(oauth.length, 15);
    const customCode = OPERATIONS.filter((op) => ['script', 'site_customcode', 'service_snippet'].includes(op.family));
    assert.equal(customCode.length, 9);
    assert.ok(customCode.every((op) => op.requiresOAuth));
    for (const name of [
      'page_customcode_get',
      'page_customcode_upsert',
      'page_customcode_delete',
      'webhook_create',
      'webhook_update',
      'token_authorized_by',
    ]) {
      assert.ok(oauth.includes(name), name);
    }
  });

  it('webhook_delete is not OAuth-gated', () => {
    assert.equal(getOperation('webhook_delete')?.requiresOAuth, false);
  });

  it('exactly three operations are locale-gated', () => {
    assert.deepEqual(
      names((op) => op.localeGated),
      ['component_content_update', 'component_properties_update', 'page_dom_update'],
    );
  });

  it('32 operations are confirm-gated, including the thirteen the spec adds and every delete', () => {
    const gated = names((op) => op.confirmGated);
    assert.equal(gated.length, 32);
    const thirteen = [
      'cms_item_publish',
      'cms_item_unpublish',
      'cms_item_unpublish_bulk',
      'site_customcode_upsert',
      'page_customcode_upsert',
      'google_tag_upsert',
      'service_snippet_install',
      'llms_txt_update',
      'robots_merge',
      'redirect_create',
      'wellknown_create',
      'webhook_create',
      'project_cms_provider_set',
    ];
    for (const name of [...thirteen, 'order_fulfill', 'order_refund', 'robots_replace', 'webhook_update', 'site_publish']) {
      assert.ok(gated.includes(name), name);
    }
    const deletes = OPERATIONS.filter((op) => op.platform?.method === 'DELETE' && !op.name.includes('unpublish'));
    assert.ok(deletes.length >= 13);
    for (const op of deletes) assert.ok(op.confirmGated, op.name);
    assert.ok(OPERATIONS.filter((op) => op.confirmGated).every((op) => op.kind === 'write'));
  });

  it('14 operations are Enterprise-only (advisory)', () => {
    const ent = names((op) => op.enterpriseOnly);
    assert.equal(ent.length, 14);
    assert.ok(ent.includes('activity_log_list'));
    assert.ok(
      OPERATIONS.filter((op) => ['redirect', 'robots', 'wellknown', 'llms_txt'].includes(op.family)).every((op) => op.enterpriseOnly),
    );
  });

  it('9 operations are served by the beta namespace', () => {
    assert.equal(names((op) => op.platform?.base === 'beta').length, 9);
    assert.equal(getOperation('page_dom_get')?.platform?.base, 'v2');
    assert.equal(getOperation('component_content_get')?.platform?.base, 'v2');
  });

  it('only site_publish and the three item publish-state writes skip the idempotency slot', () => {
    assert.deepEqual(
      names((op) => op.kind === 'write' && !op.claimsIdempotencySlot),
      ['cms_item_publish', 'cms_item_unpublish', 'cms_item_unpublish_bulk', 'site_publish'],
    );
    assert.ok(OPERATIONS.filter((op) => op.kind === 'read').every((op) => !op.claimsIdempotencySlot && op.lockTarget === null));
  });

  it('covers every family the spec names', () => {
    const families = new Set(OPERATIONS.map((op) => op.family));
    for (const f of [
      'site',
      'page',
      'component',
      'cms',
      'asset',
      'script',
      'site_customcode',
      'service_snippet',
      'google_tag',
      'form',
      'comment',
      'product',
      'order',
      'sku',
      'inventory',
      'redirect',
      'robots',
      'wellknown',
      'llms_txt',
      'webhook',
      'token',
      'activity_log_list',
      'service',
    ]) {
      assert.ok(families.has(f as never), f);
    }
  });
});
