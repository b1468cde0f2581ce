import assert from 'node:assert/strict';
import { missingScopes, scopeGranted } from '../../../src/sitePlatform/registry';

describe('site-platform registry: scopes', () => {
  it('singular page:read satisfies pages:read and the reverse', () => {
    assert.equal(scopeGranted('sites:read page:read', 'pages:read'), true);
    assert.equal(scopeGranted('pages:write', 'page:write'), true);
    assert.equal(scopeGranted('page:read', 'pages:write'), false);
  });

  it('accepts space- and comma-separated grants and lists what is missing in order', () => {
    assert.deepEqual(missingScopes('cms:read,assets:read  sites:read', ['cms:read', 'cms:write', 'site_activity:read']), [
      'cms:write',
      'site_activity:read',
    ]);
    assert.deepEqual(missingScopes(['custom_code:write', 'page:read'], ['custom_code:write', 'pages:read']), []);
  });

  it('does not treat a read scope as a write scope or a prefix as a scope', () => {
    assert.equal(scopeGranted('cms:read', 'cms:write'), false);
    assert.equal(scopeGranted('cms', 'cms:read'), false);
  });
});
