import assert from 'node:assert/strict';
import { checkGates, getOperation, type GateContext, type OperationDef } from '../../../src/sitePlatform/registry';

const op = (name: string): OperationDef => {
  const found = getOperation(name);
  assert.ok(found, name);
  return found;
};
const ALL =
  'sites:read sites:write pages:read pages:write cms:read cms:write custom_code:read custom_code:write components:read components:write authorized_user:read';
const ok: GateContext = {
  grantedScopes: ALL,
  authKind: 'oauth',
  confirm: true,
  localeId: 'loc_fr',
  siteHasSecondaryLocale: true,
  method: 'POST',
};
const codeOf = (name: string, ctx: Partial<GateContext>) => {
  const err = checkGates(op(name), { ...ok, ...ctx });
  return err && { status: err.status, code: err.code, message: err.message };
};

describe('site-platform registry: gates', () => {
  it('a read sent as POST answers 400 wrong_verb', () => {
    assert.deepEqual(codeOf('cms_item_list', { method: 'POST' })?.code, 'wrong_verb');
    assert.equal(codeOf('cms_item_list', { method: 'POST' })?.status, 400);
  });

  it('a write sent as GET answers 400 wrong_verb', () => {
    assert.equal(codeOf('site_publish', { method: 'GET' })?.code, 'wrong_verb');
  });

  it('a read whose platform method is POST is still a GET on the route', () => {
    assert.equal(checkGates(op('page_schema_bulk_get'), { ...ok, method: 'get' }), null);
    assert.equal(codeOf('page_schema_bulk_get', { method: 'POST' })?.code, 'wrong_verb');
  });

  it('a scope never granted answers 412 missing_scopes naming it', () => {
    const err = checkGates(op('activity_log_list'), { ...ok, method: 'GET' });
    assert.equal(err?.status, 412);
    assert.equal(err?.code, 'missing_scopes');
    assert.deepEqual(err?.extra.details, { missing_scopes: ['site_activity:read'] });
  });

  it('the singular page:write grant passes the scope gate of a pages:write operation', () => {
    assert.equal(checkGates(op('page_metadata_update'), { ...ok, grantedScopes: 'page:write' }), null);
  });

  it('a confirm-gated write without confirm true answers 412 confirm_required', () => {
    assert.deepEqual(codeOf('cms_item_publish', { confirm: undefined })?.code, 'confirm_required');
    assert.equal(codeOf('cms_item_publish', { confirm: 'true' })?.code, 'confirm_required', 'only the boolean true confirms');
    assert.equal(codeOf('cms_item_publish', { confirm: false })?.status, 412);
    assert.equal(codeOf('cms_item_update', { confirm: undefined }), null, 'an ungated write needs no confirm');
  });

  it('a site token calling an OAuth-only operation answers 412 oauth_required', () => {
    assert.equal(codeOf('site_customcode_upsert', { authKind: 'site_token' })?.code, 'oauth_required');
    assert.equal(codeOf('token_authorized_by', { authKind: 'site_token', method: 'GET' })?.code, 'oauth_required');
    assert.equal(codeOf('webhook_delete', { authKind: 'site_token' }), null, 'webhook_delete is not gated');
  });

  it('a DOM write on a site without a secondary locale answers 412 secondary_locale_required saying so', () => {
    const err = codeOf('page_dom_update', { siteHasSecondaryLocale: false });
    assert.equal(err?.status, 412);
    assert.equal(err?.code, 'secondary_locale_required');
    assert.match(err!.message, /site has no secondary locale/);
  });

  it('a DOM write without localeId answers 412 secondary_locale_required', () => {
    for (const name of ['page_dom_update', 'component_content_update', 'component_properties_update']) {
      assert.equal(codeOf(name, { localeId: undefined })?.code, 'secondary_locale_required', name);
    }
    assert.equal(codeOf('page_dom_update', {}), null);
  });

  it('gates run in the order wrong_verb, scope, confirm, auth kind, locale', () => {
    // A made-up operation carrying every gate, so each failure can be peeled off in turn.
    const all = { ...op('page_dom_update'), confirmGated: true, requiresOAuth: true };
    const failing: GateContext = {
      grantedScopes: '',
      authKind: 'site_token',
      confirm: undefined,
      localeId: undefined,
      siteHasSecondaryLocale: false,
      method: 'GET',
    };
    const order: string[] = [];
    let ctx = failing;
    const fixes: Array<Partial<GateContext>> = [
      { method: 'POST' },
      { grantedScopes: 'pages:write' },
      { confirm: true },
      { authKind: 'oauth' },
      { siteHasSecondaryLocale: true, localeId: 'loc_fr' },
    ];
    for (const fix of fixes) {
      order.push(checkGates(all, ctx)!.code);
      ctx = { ...ctx, ...fix };
    }
    assert.equal(checkGates(all, ctx), null);
    assert.deepEqual(order, ['wrong_verb', 'missing_scopes', 'confirm_required', 'oauth_required', 'secondary_locale_required']);
  });

  it('every registry write passes with full grants, confirm, OAuth and a secondary locale', () => {
    const everything = `${ALL} assets:write forms:write comments:write ecommerce:write site_config:write`;
    for (const name of ['asset_delete', 'order_refund', 'robots_replace', 'project_cms_provider_set', 'webhook_update']) {
      assert.equal(checkGates(op(name), { ...ok, grantedScopes: everything }), null, name);
    }
  });
});
