/**
 * Google tags in a site's integrations: `googleTagIds` entries keyed by tagId (G-, GT-, AW-, DC-), at most 25 per
 * site, listed by `order`. PATCH adds or updates the named tags and keeps the others.
 */
import { z } from 'zod';
import { json, parseBody, platformError } from '../http';
import type { Route } from '../router';
import type { SiteData } from '../siteData';
import { withSite } from './support';

const MAX_GOOGLE_TAGS = 25;
const googleTagBody = z.object({
  googleTagIds: z
    .array(
      z.object({
        tagId: z.string().regex(/^(G|GT|AW|DC)-[A-Z0-9]+$/),
        displayName: z.string().optional(),
        order: z.number().int().min(0).optional(),
      }),
    )
    .min(1)
    .max(MAX_GOOGLE_TAGS),
});

const GOOGLE_TAGS = /^\/sites\/(?<siteId>[^/]+)\/integrations\/google_tags$/;
const GOOGLE_TAG = /^\/sites\/(?<siteId>[^/]+)\/integrations\/google_tags\/(?<tagId>[^/]+)$/;

const sortedTags = (d: SiteData) => [...d.googleTags].sort((a, b) => a.order - b.order);
const googleTagsView = (d: SiteData) => ({ googleTagIds: structuredClone(sortedTags(d)) });

export const googleTagRoutes: Route[] = [
  { method: 'GET', pattern: GOOGLE_TAGS, scope: 'sites:read', handle: (ctx) => withSite(ctx, (_s, d) => json(200, googleTagsView(d))) },
  {
    // Adds or updates the named tags; tags not named are kept (at most 25 in all), `order` is assigned to new tags.
    method: 'PATCH',
    pattern: GOOGLE_TAGS,
    scope: 'sites:write',
    handle: (ctx) =>
      withSite(ctx, (_s, d) => {
        const body = parseBody(ctx.req, googleTagBody);
        if (!body.ok) return body.response;
        const incoming = body.value.googleTagIds;
        const added = incoming.filter((t) => !d.googleTags.some((g) => g.tagId === t.tagId));
        if (d.googleTags.length + added.length > MAX_GOOGLE_TAGS) {
          return platformError(400, 'validation_error', `A site may have at most ${MAX_GOOGLE_TAGS} Google tags`, [
            { param: 'googleTagIds', description: 'too many tags' },
          ]);
        }
        for (const t of incoming) {
          let tag = d.googleTags.find((g) => g.tagId === t.tagId);
          if (!tag) d.googleTags.push((tag = { tagId: t.tagId, displayName: t.tagId, order: d.googleTags.length }));
          if (t.displayName !== undefined) tag.displayName = t.displayName;
          if (t.order !== undefined) tag.order = t.order;
        }
        return json(200, googleTagsView(d));
      }),
  },
  {
    method: 'DELETE',
    pattern: GOOGLE_TAGS,
    scope: 'sites:write',
    handle: (ctx) =>
      withSite(ctx, (_s, d) => {
        d.googleTags = [];
        return { status: 204 };
      }),
  },
  {
    method: 'DELETE',
    pattern: GOOGLE_TAG,
    scope: 'sites:write',
    handle: (ctx) =>
      withSite(ctx, (_s, d) => {
        const at = d.googleTags.findIndex((t) => t.tagId === ctx.req.params.tagId);
        if (at < 0) return platformError(404, 'resource_not_found', 'Google tag not found');
        d.googleTags.splice(at, 1);
        // The remaining tags' order is renormalised.
        sortedTags(d).forEach((t, i) => {
          t.order = i;
        });
        return json(200, googleTagsView(d));
      }),
  },
];
