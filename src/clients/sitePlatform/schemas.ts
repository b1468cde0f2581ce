import { z } from 'zod';
import type { AuthorizedUser, Site, SiteLocale, TokenIntrospection } from './types';

/** Response shapes of the calls the client wraps; unknown members pass, missing optional ones become null. */
const ids = z
  .array(z.string())
  .nullish()
  .transform((v) => v ?? []);

export const introspectionSchema = z.object({
  authorization: z.object({
    grantType: z.string().nullish(),
    rateLimit: z.number().nullish(),
    scope: z.string().nullish(),
    authorizedTo: z.object({ siteIds: ids, workspaceIds: ids, userIds: ids }).nullish(),
  }),
  application: z.object({ id: z.string(), displayName: z.string().nullish() }).nullish(),
});

export function toIntrospection(raw: z.output<typeof introspectionSchema>): TokenIntrospection {
  const a = raw.authorization;
  const out: TokenIntrospection = {
    scopes: (a.scope ?? '').split(/[\s,]+/).filter(Boolean),
    rateLimitPerMinute: a.rateLimit ?? null,
    authorizedTo: a.authorizedTo ?? { siteIds: [], workspaceIds: [], userIds: [] },
  };
  if (a.grantType) out.grantType = a.grantType;
  if (raw.application) out.application = { id: raw.application.id, displayName: raw.application.displayName ?? null };
  return out;
}

export const authorizedBySchema = z.object({
  id: z.string().nullish(),
  email: z.string().nullish(),
  firstName: z.string().nullish(),
  lastName: z.string().nullish(),
});

export function toAuthorizedUser(raw: z.output<typeof authorizedBySchema>): AuthorizedUser {
  return { id: raw.id ?? null, email: raw.email ?? null, firstName: raw.firstName ?? null, lastName: raw.lastName ?? null };
}

const localeSchema = z.object({
  id: z.string(),
  cmsLocaleId: z.string().nullish(),
  tag: z.string().nullish(),
  displayName: z.string().nullish(),
  enabled: z.boolean().nullish(),
});

const siteSchema = z.object({
  id: z.string(),
  workspaceId: z.string().nullish(),
  displayName: z.string(),
  shortName: z.string().nullish(),
  timeZone: z.string().nullish(),
  lastPublished: z.string().nullish(),
  customDomains: z.array(z.object({ id: z.string(), url: z.string() })).nullish(),
  locales: z.object({ primary: localeSchema.nullish(), secondary: z.array(localeSchema).nullish() }).nullish(),
});

export const sitesSchema = z.object({ sites: z.array(siteSchema) });

function toLocale(l: z.output<typeof localeSchema>): SiteLocale {
  return {
    id: l.id,
    cmsLocaleId: l.cmsLocaleId ?? null,
    tag: l.tag ?? null,
    displayName: l.displayName ?? null,
    enabled: l.enabled ?? true,
  };
}

export function toSite(s: z.output<typeof siteSchema>): Site {
  return {
    id: s.id,
    workspaceId: s.workspaceId ?? null,
    displayName: s.displayName,
    shortName: s.shortName ?? null,
    timeZone: s.timeZone ?? null,
    lastPublished: s.lastPublished ?? null,
    customDomains: (s.customDomains ?? []).map(({ id, url }) => ({ id, url })),
    locales: {
      primary: s.locales?.primary ? toLocale(s.locales.primary) : null,
      secondary: (s.locales?.secondary ?? []).map(toLocale),
    },
  };
}
