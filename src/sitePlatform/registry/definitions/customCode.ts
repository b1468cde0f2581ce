import { z } from 'zod';
import { read, write } from '../define';
import { confirm, id, obj, siteId } from '../params';

const ccR = { scopes: ['custom_code:read'], oauth: true } as const;
const ccW = { scopes: ['custom_code:write'], oauth: true } as const;
// Page custom code also needs pages:read (spec, Scopes requested).
const pageCcR = { scopes: ['custom_code:read', 'pages:read'], oauth: true } as const;
const pageCcW = { scopes: ['custom_code:write', 'pages:read'], oauth: true } as const;

const scriptVersion = z.string().regex(/^\d+\.\d+\.\d+$/, 'a semantic version such as 1.0.0');
const hosted = {
  hostedLocation: z.string().url(),
  integrityHash: z.string().min(1),
  version: scriptVersion,
  displayName: z.string().min(1),
  canCopy: z.boolean().optional(),
};
const inline = {
  sourceCode: z.string().min(1).max(2000),
  integrityHash: z.string().optional(),
  version: scriptVersion,
  displayName: z.string().min(1),
  canCopy: z.boolean().optional(),
};
const appliedScripts = z
  .array(
    z.strictObject({
      id,
      version: scriptVersion,
      location: z.enum(['header', 'footer']),
      attributes: z.record(z.string(), z.unknown()).optional(),
    }),
  )
  .max(50);

export const scriptOperations = [
  read('script_list', 'script', 'GET', '/sites/{site_id}/registered_scripts', obj(siteId), ccR),
  write('script_register_hosted', 'script', 'POST', '/sites/{site_id}/registered_scripts/hosted', obj({ ...siteId, ...hosted }), ccW),
  write('script_register_inline', 'script', 'POST', '/sites/{site_id}/registered_scripts/inline', obj({ ...siteId, ...inline }), ccW),
];

export const siteCustomCodeOperations = [
  read('site_customcode_get', 'site_customcode', 'GET', '/sites/{site_id}/custom_code', obj(siteId), ccR),
  read('site_customcode_blocks_list', 'site_customcode', 'GET', '/sites/{site_id}/custom_code/blocks', obj(siteId), ccR),
  write(
    'site_customcode_upsert',
    'site_customcode',
    'PUT',
    '/sites/{site_id}/custom_code',
    obj({ ...siteId, ...confirm, scripts: appliedScripts }),
    { ...ccW, confirm: true, lock: 'site_id' },
  ),
  write('site_customcode_delete', 'site_customcode', 'DELETE', '/sites/{site_id}/custom_code', obj({ ...siteId, ...confirm }), {
    ...ccW,
    confirm: true,
    lock: 'site_id',
  }),
];

export const pageCustomCodeOperations = [
  read('page_customcode_get', 'page', 'GET', '/pages/{page_id}/custom_code', obj({ ...siteId, page_id: id }), pageCcR),
  write(
    'page_customcode_upsert',
    'page',
    'PUT',
    '/pages/{page_id}/custom_code',
    obj({ ...siteId, ...confirm, page_id: id, scripts: appliedScripts }),
    { ...pageCcW, confirm: true, lock: 'page_id' },
  ),
  write('page_customcode_delete', 'page', 'DELETE', '/pages/{page_id}/custom_code', obj({ ...siteId, ...confirm, page_id: id }), {
    ...pageCcW,
    confirm: true,
    lock: 'page_id',
  }),
];

// The service's own tracking snippet: registers an inline script, then applies it site-wide (424 snippet_apply_failed
// when the second step fails). Removal reads the applied list and writes it back without the snippet. Both are
// composites, so neither takes a lock; removal is the OFF half of the pair and asks for confirm, so install does too.
export const serviceSnippetOperations = [
  write(
    'service_snippet_install',
    'service_snippet',
    'POST',
    '/sites/{site_id}/registered_scripts/inline',
    obj({ ...siteId, ...confirm, location: z.enum(['header', 'footer']).optional() }),
    { ...ccW, confirm: true, composite: 'snippet' },
  ),
  write('service_snippet_remove', 'service_snippet', 'PUT', '/sites/{site_id}/custom_code', obj({ ...siteId, ...confirm }), {
    ...ccW,
    confirm: true,
    composite: 'snippet',
  }),
];

// Google tags live in site settings (sites:* scopes), so a site token may manage them. The upsert names tags by tagId
// and keeps the ones it does not name; a site holds at most 25.
const googleTag = z.strictObject({
  tagId: z.string().regex(/^(G|GT|AW|DC)-[A-Z0-9]+$/),
  displayName: z.string().optional(),
  order: z.number().int().min(0).optional(),
});
export const googleTagOperations = [
  read('google_tag_list', 'google_tag', 'GET', '/sites/{site_id}/integrations/google_tags', obj(siteId), { scopes: ['sites:read'] }),
  write(
    'google_tag_upsert',
    'google_tag',
    'PATCH',
    '/sites/{site_id}/integrations/google_tags',
    obj({ ...siteId, ...confirm, googleTagIds: z.array(googleTag).min(1).max(25) }),
    { scopes: ['sites:write'], confirm: true, lock: 'site_id' },
  ),
  write('google_tag_delete', 'google_tag', 'DELETE', '/sites/{site_id}/integrations/google_tags', obj({ ...siteId, ...confirm }), {
    scopes: ['sites:write'],
    confirm: true,
    lock: 'site_id',
  }),
];
