import { z } from 'zod';
import { read, write } from '../define';
import { confirm, fieldData, id, obj, optionalLocale, paging, siteId } from '../params';

const collection = { ...siteId, collection_id: id };
const item = { ...collection, item_id: id };
const cmsR = { scopes: ['cms:read'] } as const;
const cmsW = { scopes: ['cms:write'] } as const;
// The field types a client can create, as the platform's reference names them (the official SDK's StaticFieldType,
// OptionField and ReferenceField): there is no `Video` (the video field is `VideoLink`), and `ExtFileRef` is read-only.
const fieldType = z.enum([
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
  'Option',
  'Reference',
  'MultiReference',
]);
const fieldMetadata = z.strictObject({
  options: z
    .array(z.strictObject({ name: z.string().min(1), id: z.string().optional() }))
    .min(1)
    .optional(),
  collectionId: id.optional(),
});
const field = {
  type: fieldType,
  displayName: z.string().min(1),
  helpText: z.string().optional(),
  isRequired: z.boolean().optional(),
  metadata: fieldMetadata.optional(),
};
/** An Option field names its options and a Reference field its target collection, as the platform requires. */
function fieldMetadataPresent(f: { type?: unknown; metadata?: z.infer<typeof fieldMetadata> }, ctx: z.RefinementCtx): void {
  if (f.type === 'Option' && !f.metadata?.options)
    ctx.addIssue({ code: 'custom', path: ['metadata', 'options'], message: 'an Option field needs metadata.options' });
  if ((f.type === 'Reference' || f.type === 'MultiReference') && !f.metadata?.collectionId) {
    ctx.addIssue({ code: 'custom', path: ['metadata', 'collectionId'], message: `a ${String(f.type)} field needs metadata.collectionId` });
  }
}
const itemBody = { isArchived: z.boolean().optional(), isDraft: z.boolean().optional(), fieldData, cmsLocaleId: z.string().optional() };
const itemIds = z.array(id).min(1).max(100);
// The platform's bulk unpublish names items as objects, each optionally limited to some CMS locales.
const liveItems = z
  .array(z.strictObject({ id, cmsLocaleIds: z.array(id).optional() }))
  .min(1)
  .max(100);
const listQuery = {
  ...paging,
  ...optionalLocale,
  cmsLocaleId: z.string().optional(),
  sortBy: z.enum(['lastPublished', 'name', 'slug']).optional(),
  sortOrder: z.enum(['asc', 'desc']).optional(),
};

export const cmsOperations = [
  read('cms_collection_list', 'cms', 'GET', '/sites/{site_id}/collections', obj(siteId), cmsR),
  read('cms_collection_get', 'cms', 'GET', '/collections/{collection_id}', obj(collection), cmsR),
  write(
    'cms_collection_create',
    'cms',
    'POST',
    '/sites/{site_id}/collections',
    obj({
      ...siteId,
      displayName: z.string().min(1),
      singularName: z.string().min(1),
      slug: z.string().optional(),
      fields: z.array(z.strictObject(field).superRefine(fieldMetadataPresent)).optional(),
    }),
    cmsW,
  ),
  write('cms_collection_delete', 'cms', 'DELETE', '/collections/{collection_id}', obj({ ...collection, ...confirm }), {
    ...cmsW,
    confirm: true,
    lock: 'collection_id',
  }),
  write(
    'cms_field_create',
    'cms',
    'POST',
    '/collections/{collection_id}/fields',
    obj({ ...collection, ...field }).superRefine(fieldMetadataPresent),
    cmsW,
  ),
  write(
    'cms_field_update',
    'cms',
    'PATCH',
    '/collections/{collection_id}/fields/{field_id}',
    obj({
      ...collection,
      field_id: id,
      displayName: z.string().min(1).optional(),
      helpText: z.string().optional(),
      isRequired: z.boolean().optional(),
    }),
    { ...cmsW, lock: 'field_id' },
  ),
  write(
    'cms_field_delete',
    'cms',
    'DELETE',
    '/collections/{collection_id}/fields/{field_id}',
    obj({ ...collection, ...confirm, field_id: id }),
    { ...cmsW, confirm: true, lock: 'field_id' },
  ),
  read('cms_item_list', 'cms', 'GET', '/collections/{collection_id}/items', obj({ ...collection, ...listQuery }), cmsR),
  read('cms_item_list_live', 'cms', 'GET', '/collections/{collection_id}/items/live', obj({ ...collection, ...listQuery }), cmsR),
  read(
    'cms_item_get',
    'cms',
    'GET',
    '/collections/{collection_id}/items/{item_id}',
    obj({ ...item, cmsLocaleId: z.string().optional() }),
    cmsR,
  ),
  read(
    'cms_item_get_live',
    'cms',
    'GET',
    '/collections/{collection_id}/items/{item_id}/live',
    obj({ ...item, cmsLocaleId: z.string().optional() }),
    cmsR,
  ),
  write('cms_item_create', 'cms', 'POST', '/collections/{collection_id}/items', obj({ ...collection, ...itemBody }), cmsW),
  write(
    'cms_item_create_bulk',
    'cms',
    'POST',
    '/collections/{collection_id}/items/bulk',
    obj({
      ...collection,
      cmsLocaleIds: z.array(id).optional(),
      isArchived: z.boolean().optional(),
      isDraft: z.boolean().optional(),
      fieldData: z.union([fieldData, z.array(fieldData).min(1).max(100)]),
    }),
    cmsW,
  ),
  write(
    'cms_item_update',
    'cms',
    'PATCH',
    '/collections/{collection_id}/items/{item_id}',
    obj({ ...item, ...itemBody, fieldData: fieldData.optional() }),
    { ...cmsW, lock: 'item_id' },
  ),
  write(
    'cms_item_update_bulk',
    'cms',
    'PATCH',
    '/collections/{collection_id}/items',
    obj({
      ...collection,
      items: z
        .array(z.strictObject({ id, ...itemBody, fieldData: fieldData.optional() }))
        .min(1)
        .max(100),
    }),
    cmsW,
  ),
  write(
    'cms_item_delete',
    'cms',
    'DELETE',
    '/collections/{collection_id}/items/{item_id}',
    obj({ ...item, ...confirm, cmsLocaleId: z.string().optional() }),
    { ...cmsW, confirm: true, lock: 'item_id' },
  ),
  // The three publish-state writes never claim an idempotency slot (spec, Operation routes rule 4): the platform call is
  // naturally idempotent and a cached answer would hide the live state.
  write('cms_item_publish', 'cms', 'POST', '/collections/{collection_id}/items/publish', obj({ ...collection, ...confirm, itemIds }), {
    ...cmsW,
    confirm: true,
    idempotent: false,
  }),
  write('cms_item_unpublish', 'cms', 'DELETE', '/collections/{collection_id}/items/{item_id}/live', obj({ ...item, ...confirm }), {
    ...cmsW,
    confirm: true,
    idempotent: false,
    lock: 'item_id',
  }),
  write(
    'cms_item_unpublish_bulk',
    'cms',
    'DELETE',
    '/collections/{collection_id}/items/live',
    obj({ ...collection, ...confirm, items: liveItems }),
    { ...cmsW, confirm: true, idempotent: false, deleteBody: true },
  ),
];
