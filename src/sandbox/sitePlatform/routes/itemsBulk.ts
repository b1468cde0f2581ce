/**
 * POST /collections/{id}/items/bulk: the same content created in several CMS locales under one item id. Every locale
 * keeps its own record; the answer is one object with the item `id` and its `cmsLocaleIds` (the reference's
 * BulkCollectionItem), not a list of per-locale rows. For several `fieldData` rows it describes the first item.
 */
import { z } from 'zod';
import { emitItems } from '../events';
import { json, parseBody, platformError, type SimResponse } from '../http';
import { findCollection } from '../lookup';
import type { Route } from '../router';
import { iso, newId, slugify, type SimCollection, type SimItem } from '../state';
import { slugConflict, slugTaken } from './items';

const fieldData = z.record(z.string(), z.unknown());
const bulkCreate = z.object({
  cmsLocaleIds: z.array(z.string().min(1)).min(1).optional(),
  isArchived: z.boolean().default(false),
  isDraft: z.boolean().default(false),
  fieldData: z.union([fieldData, z.array(fieldData).min(1).max(100)]),
});

type Row = { name: string; slug: string; data: Record<string, unknown> };

/** Every row named and slugged, slugs unused in the collection and distinct within the request; nothing is written otherwise. */
function readRows(
  c: SimCollection,
  rows: Array<Record<string, unknown>>,
): { ok: true; rows: Row[] } | { ok: false; response: SimResponse } {
  const out: Row[] = [];
  for (const [at, data] of rows.entries()) {
    const name = typeof data.name === 'string' && data.name ? data.name : undefined;
    const slug = typeof data.slug === 'string' && data.slug ? data.slug : name && slugify(name);
    if (!name || !slug)
      return {
        ok: false,
        response: platformError(400, 'validation_error', 'Validation Error: invalid request', [
          { param: `fieldData.${at}.name`, description: 'Required' },
        ]),
      };
    const taken = slugTaken(c, slug) ?? (out.some((r) => r.slug === slug) ? slugConflict(slug) : undefined);
    if (taken) return { ok: false, response: taken };
    out.push({ name, slug, data });
  }
  return { ok: true, rows: out };
}

export const itemsBulkRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/collections\/(?<collectionId>[^/]+)\/items\/bulk$/,
    scope: 'cms:write',
    handle: (ctx) => {
      const found = findCollection(ctx, ctx.req.params.collectionId);
      if (!found.ok) return found.response;
      const c = found.value;
      const body = parseBody(ctx.req, bulkCreate);
      if (!body.ok) return body.response;
      const site = ctx.state.sites.get(c.siteId)!;
      const known = [site.locales.primary, ...site.locales.secondary].map((l) => l.cmsLocaleId);
      const requested = body.value.cmsLocaleIds ?? [site.locales.primary.cmsLocaleId];
      const bad = requested.filter((l) => !known.includes(l));
      if (bad.length > 0)
        return platformError(
          400,
          'validation_error',
          'Unknown cmsLocaleId',
          bad.map((l) => ({ param: 'cmsLocaleIds', description: l })),
        );
      const rows = readRows(c, Array.isArray(body.value.fieldData) ? body.value.fieldData : [body.value.fieldData]);
      if (!rows.ok) return rows.response;
      // Stored in the site's locale order, so an item's first record is its primary-locale one when it has one.
      const locales = known.filter((l) => requested.includes(l));
      const now = iso(ctx.state.now());
      const { isArchived, isDraft } = body.value;
      const created: SimItem[] = [];
      const ids = rows.rows.map((row) => {
        const id = newId();
        for (const cmsLocaleId of locales) {
          created.push({
            id,
            cmsLocaleId,
            createdOn: now,
            lastUpdated: now,
            lastPublished: null,
            isArchived,
            isDraft,
            fieldData: { ...row.data, name: row.name, slug: row.slug },
          });
        }
        return id;
      });
      c.items.push(...created);
      // One collection_item_created per locale record, as for single-locale creates.
      emitItems(ctx.state, 'collection_item_created', c, created);
      const first = rows.rows[0];
      return json(202, {
        id: ids[0],
        cmsLocaleIds: locales,
        lastPublished: null,
        lastUpdated: now,
        createdOn: now,
        isArchived,
        isDraft,
        fieldData: { ...structuredClone(first.data), name: first.name, slug: first.slug },
      });
    },
  },
];
