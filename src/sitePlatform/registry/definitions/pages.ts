import { z } from 'zod';
import { jsonNestsDeeperThan } from '../../../http/jsonDepth';
import { read, write } from '../define';
import { gatedLocale, id, jsonLd, obj, optionalLocale, paging, siteId, withBindings } from '../params';

const page = { ...siteId, page_id: id };
const seo = z.strictObject({ title: z.string().optional(), description: z.string().optional() }).optional();
const openGraph = z
  .strictObject({
    title: z.string().optional(),
    titleCopied: z.boolean().optional(),
    description: z.string().optional(),
    descriptionCopied: z.boolean().optional(),
  })
  .optional();
const metadata = { title: z.string().optional(), slug: z.string().optional(), seo, openGraph };
const domNodes = z.array(z.object({ nodeId: id }).passthrough()).min(1);
const component = { ...siteId, component_id: id };
const properties = z.array(z.object({ propertyId: id, text: z.string() }).passthrough()).min(1);

/**
 * An array parameter of a read: it arrives JSON-encoded in one query key on the GET route (as the MCP tools send it).
 * Text nested past the JSON bound stays text, which the schema refuses.
 */
const jsonInQuery = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => {
    if (typeof v !== 'string' || jsonNestsDeeperThan(v)) return v;
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  }, schema);

const pagesR = { scopes: ['pages:read'] } as const;
const pagesW = { scopes: ['pages:write'] } as const;

export const pageOperations = [
  read('page_list', 'page', 'GET', '/sites/{site_id}/pages', obj({ ...siteId, ...optionalLocale, ...paging }), pagesR),
  // Scans page lists client-side (the platform has no page search); an empty result with capped true means "not in the pages scanned".
  read(
    'page_query',
    'page',
    'GET',
    '/sites/{site_id}/pages',
    obj({ ...siteId, ...optionalLocale, query: z.string().min(1), max_pages: z.coerce.number().int().min(1).max(1000).optional() }),
    { ...pagesR, composite: 'page_scan' },
  ),
  read('page_get', 'page', 'GET', '/pages/{page_id}', obj({ ...page, ...optionalLocale }), pagesR),
  write('page_metadata_update', 'page', 'PUT', '/pages/{page_id}', obj({ ...page, ...optionalLocale, ...metadata }), {
    ...pagesW,
    lock: 'page_id',
  }),
  write(
    'page_metadata_bulk_update',
    'page',
    'PATCH',
    '/sites/{site_id}/pages',
    obj({
      ...siteId,
      pages: z
        .array(z.strictObject({ id, ...optionalLocale, ...metadata }))
        .min(1)
        .max(100),
    }),
    { ...pagesW, base: 'beta' },
  ),
  read('page_dom_get', 'page', 'GET', '/pages/{page_id}/dom', obj({ ...page, ...optionalLocale, ...paging, ...withBindings }), pagesR),
  write('page_dom_update', 'page', 'POST', '/pages/{page_id}/dom', obj({ ...page, ...gatedLocale, nodes: domNodes }), {
    ...pagesW,
    locale: true,
    lock: 'page_id',
  }),
  read('page_schema_get', 'page', 'GET', '/pages/{page_id}/schema-markup', obj({ ...page, ...optionalLocale }), {
    ...pagesR,
    base: 'beta',
  }),
  write('page_schema_update', 'page', 'PUT', '/pages/{page_id}/schema-markup', obj({ ...page, ...optionalLocale, jsonLdSchema: jsonLd }), {
    ...pagesW,
    base: 'beta',
    lock: 'page_id',
  }),
  // A read although the platform takes it as POST: the route verb follows the operation's kind, not the platform method.
  read(
    'page_schema_bulk_get',
    'page',
    'POST',
    '/sites/{site_id}/pages/schema-markup/query',
    obj({
      ...siteId,
      pages: jsonInQuery(
        z
          .array(z.strictObject({ id, ...optionalLocale }))
          .min(1)
          .max(100),
      ),
    }),
    { ...pagesR, base: 'beta' },
  ),
  write(
    'page_schema_bulk_update',
    'page',
    'PATCH',
    '/sites/{site_id}/pages/schema-markup',
    obj({
      ...siteId,
      pages: z
        .array(z.strictObject({ id, ...optionalLocale, jsonLdSchema: jsonLd }))
        .min(1)
        .max(25),
    }),
    { ...pagesW, base: 'beta' },
  ),
];

export const componentOperations = [
  read('component_list', 'component', 'GET', '/sites/{site_id}/components', obj({ ...siteId, ...optionalLocale, ...paging }), {
    scopes: ['components:read'],
  }),
  read(
    'component_content_get',
    'component',
    'GET',
    '/sites/{site_id}/components/{component_id}/dom',
    obj({ ...component, ...optionalLocale, ...paging, ...withBindings }),
    { scopes: ['components:read'] },
  ),
  write(
    'component_content_update',
    'component',
    'POST',
    '/sites/{site_id}/components/{component_id}/dom',
    obj({ ...component, ...gatedLocale, nodes: domNodes }),
    { scopes: ['components:write'], locale: true, lock: 'component_id' },
  ),
  read(
    'component_properties_get',
    'component',
    'GET',
    '/sites/{site_id}/components/{component_id}/properties',
    obj({ ...component, ...optionalLocale }),
    { scopes: ['components:read'] },
  ),
  write(
    'component_properties_update',
    'component',
    'POST',
    '/sites/{site_id}/components/{component_id}/properties',
    obj({ ...component, ...gatedLocale, properties }),
    { scopes: ['components:write'], locale: true, lock: 'component_id' },
  ),
];
