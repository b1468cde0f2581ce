import { z } from 'zod';
import { read, write } from '../define';
import { confirm, id, obj, siteId } from '../params';

// Redirects, robots.txt, /.well-known/ files and llms.txt are Enterprise endpoints (advisory: the platform answers 402).
const ent = { enterprise: true } as const;
const sr = { ...ent, scopes: ['sites:read'] } as const;
const sw = { ...ent, scopes: ['sites:write'] } as const;
const cr = { ...ent, scopes: ['site_config:read'] } as const;
const cw = { ...ent, scopes: ['site_config:write'] } as const;
const redirect = { fromUrl: z.string().startsWith('/'), toUrl: z.string().min(1) };
const robotsRules = z.array(
  z.strictObject({ userAgent: z.string().min(1), allows: z.array(z.string()).optional(), disallows: z.array(z.string()).optional() }),
);
const robotsBody = { rules: robotsRules.optional(), sitemap: z.string().url().optional() };

export const redirectOperations = [
  read('redirect_list', 'redirect', 'GET', '/sites/{site_id}/redirects', obj(siteId), sr),
  write('redirect_create', 'redirect', 'POST', '/sites/{site_id}/redirects', obj({ ...siteId, ...confirm, ...redirect }), {
    ...sw,
    confirm: true,
  }),
  write(
    'redirect_update',
    'redirect',
    'PATCH',
    '/sites/{site_id}/redirects/{redirect_id}',
    obj({ ...siteId, redirect_id: id, fromUrl: redirect.fromUrl.optional(), toUrl: redirect.toUrl.optional() }),
    { ...sw, lock: 'redirect_id' },
  ),
  write(
    'redirect_delete',
    'redirect',
    'DELETE',
    '/sites/{site_id}/redirects/{redirect_id}',
    obj({ ...siteId, ...confirm, redirect_id: id }),
    { ...sw, confirm: true, lock: 'redirect_id' },
  ),
];

export const robotsOperations = [
  read('robots_get', 'robots', 'GET', '/sites/{site_id}/robots_txt', obj(siteId), cr),
  write('robots_replace', 'robots', 'PUT', '/sites/{site_id}/robots_txt', obj({ ...siteId, ...confirm, ...robotsBody }), {
    ...cw,
    confirm: true,
    lock: 'site_id',
  }),
  write('robots_merge', 'robots', 'PATCH', '/sites/{site_id}/robots_txt', obj({ ...siteId, ...confirm, ...robotsBody }), {
    ...cw,
    confirm: true,
    lock: 'site_id',
  }),
  write('robots_delete', 'robots', 'DELETE', '/sites/{site_id}/robots_txt', obj({ ...siteId, ...confirm, rules: robotsRules.optional() }), {
    ...cw,
    confirm: true,
    lock: 'site_id',
    deleteBody: true,
  }),
];

export const wellKnownOperations = [
  write(
    'wellknown_create',
    'wellknown',
    'PUT',
    '/sites/{site_id}/well_known',
    obj({
      ...siteId,
      ...confirm,
      fileName: z.string().min(1),
      fileData: z.string(),
      contentType: z.enum(['application/json', 'text/plain']).optional(),
    }),
    { ...cw, confirm: true, lock: 'site_id' },
  ),
  write(
    'wellknown_delete',
    'wellknown',
    'DELETE',
    '/sites/{site_id}/well_known',
    obj({ ...siteId, ...confirm, fileNames: z.array(z.string().min(1)).min(1) }),
    { ...cw, confirm: true, lock: 'site_id', deleteBody: true },
  ),
];

export const llmsTxtOperations = [
  read('llms_txt_get', 'llms_txt', 'GET', '/sites/{site_id}/llms_txt', obj(siteId), { ...cr, base: 'beta' }),
  write('llms_txt_update', 'llms_txt', 'PATCH', '/sites/{site_id}/llms_txt', obj({ ...siteId, ...confirm, content: z.string() }), {
    ...cw,
    base: 'beta',
    confirm: true,
    lock: 'site_id',
  }),
  write('llms_txt_delete', 'llms_txt', 'DELETE', '/sites/{site_id}/llms_txt', obj({ ...siteId, ...confirm }), {
    ...cw,
    base: 'beta',
    confirm: true,
    lock: 'site_id',
  }),
];
