/**
 * Page and component body content: DOM nodes and component properties per locale. The primary locale is read-only
 * through the API (its body text is edited in the designer); a secondary locale without its own copy shows the primary's.
 */
import { z } from 'zod';
import { json, platformError, type SimResponse } from '../http';
import { paginate, readPageQuery } from '../pagination';
import type { SimSite } from '../state';
import type { ComponentProperty, DomNode } from '../siteData';

export const nodeWrites = z.object({
  nodes: z
    .array(z.object({ nodeId: z.string().min(1), text: z.string() }))
    .min(1)
    .max(1000),
});
export const propertyWrites = z.object({
  properties: z
    .array(z.object({ propertyId: z.string().min(1), text: z.string() }))
    .min(1)
    .max(1000),
});

export const textNode = (id: string, text: string): DomNode => ({
  id,
  type: 'text',
  text: { html: `<p>${text}</p>`, text },
  attributes: {},
});

type Target = { ok: true; localeId: string } | { ok: false; response: SimResponse };

/** The locale a body write targets: it must name one of the site's secondary locales. */
export function writableLocale(site: SimSite, localeId: string | null): Target {
  if (localeId !== null && site.locales.secondary.some((l) => l.id === localeId)) return { ok: true, localeId };
  if (localeId === null || localeId === site.locales.primary.id) {
    return {
      ok: false,
      response: platformError(
        400,
        'validation_error',
        'Primary locale content cannot be updated through the API; edit it in the Designer',
        [{ param: 'localeId', description: 'must be a secondary locale' }],
      ),
    };
  }
  return { ok: false, response: platformError(400, 'validation_error', 'Unknown locale', [{ param: 'localeId', description: localeId }]) };
}

export function readableLocale(site: SimSite, localeId: string | null): Target {
  if (localeId === null) return { ok: true, localeId: site.locales.primary.id };
  if (localeId === site.locales.primary.id || site.locales.secondary.some((l) => l.id === localeId)) return { ok: true, localeId };
  return { ok: false, response: platformError(400, 'validation_error', 'Unknown locale', [{ param: 'localeId', description: localeId }]) };
}

/** One locale's copy, made from the primary locale's on first write. */
export function localeCopy<T>(byLocale: Map<string, T[]>, primaryId: string, localeId: string): T[] {
  let rows = byLocale.get(localeId);
  if (!rows) byLocale.set(localeId, (rows = structuredClone(byLocale.get(primaryId) ?? [])));
  return rows;
}

export function readRows<T>(byLocale: Map<string, T[]>, primaryId: string, localeId: string): T[] {
  return byLocale.get(localeId) ?? byLocale.get(primaryId) ?? [];
}

/** Applies text writes; unknown ids are reported, the rest applied. */
export function applyNodeWrites(rows: DomNode[], writes: Array<{ nodeId: string; text: string }>): string[] {
  const errors: string[] = [];
  for (const w of writes) {
    const node = rows.find((n) => n.id === w.nodeId);
    if (!node) {
      errors.push(`Node ${w.nodeId} not found`);
      continue;
    }
    node.text = { html: w.text.startsWith('<') ? w.text : `<p>${w.text}</p>`, text: w.text.replace(/<[^>]*>/g, '') };
  }
  return errors;
}

export function applyPropertyWrites(rows: ComponentProperty[], writes: Array<{ propertyId: string; text: string }>): string[] {
  const errors: string[] = [];
  for (const w of writes) {
    const prop = rows.find((p) => p.propertyId === w.propertyId);
    if (!prop) {
      errors.push(`Property ${w.propertyId} not found`);
      continue;
    }
    prop.text = { html: w.text, text: w.text.replace(/<[^>]*>/g, '') };
  }
  return errors;
}

export function pagedNodes<T>(query: URLSearchParams, rows: T[], key: string, head: Record<string, unknown>): SimResponse {
  const q = readPageQuery(query);
  if (!q.ok) return q.response;
  const page = paginate(rows, q.value);
  return json(200, { ...head, [key]: structuredClone(page.rows), pagination: page.pagination });
}
