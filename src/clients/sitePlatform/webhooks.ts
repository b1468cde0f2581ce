import { z } from 'zod';
import { sitePlatformErrors } from './errors';
import type { SitePlatformClient } from './types';

/** A webhook registration as the platform answers it (list, create, get). */
export interface PlatformWebhook {
  id: string;
  triggerType: string;
  url: string;
  /** The form_submission filter `{ name }` (the form's name); null when unfiltered. */
  filter: { name: string } | null;
  createdOn: string | null;
}

const webhookSchema = z
  .object({
    id: z.string().min(1),
    triggerType: z.string(),
    url: z.string(),
    filter: z.looseObject({ name: z.string().optional() }).nullish(),
    createdOn: z.string().nullish(),
  })
  .transform((h): PlatformWebhook => ({
    id: h.id,
    triggerType: h.triggerType,
    url: h.url,
    filter: h.filter?.name !== undefined ? { name: h.filter.name } : null,
    createdOn: h.createdOn ?? null,
  }));

const listSchema = z.object({
  webhooks: z.array(webhookSchema).nullish(),
  pagination: z.looseObject({ total: z.number().int().nonnegative().optional() }).nullish(),
});

/** Most pages one listing reads (100 each): 11 triggers × 75 registrations fit with room to spare. */
const MAX_PAGES = 20;

/**
 * GET /v2/sites/{siteId}/webhooks, every page. `complete` is false only when the listing stopped at MAX_PAGES,
 * so a caller never treats a missing registration as gone on a partial read.
 */
export async function listSiteWebhooks(
  client: SitePlatformClient,
  siteId: string,
): Promise<{ webhooks: PlatformWebhook[]; complete: boolean }> {
  const path = `/sites/${encodeURIComponent(siteId)}/webhooks`;
  const webhooks: PlatformWebhook[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await client.request({ method: 'GET', base: 'v2', path, query: { offset: webhooks.length, limit: 100 } });
    const parsed = listSchema.safeParse(res.body);
    if (!parsed.success) throw sitePlatformErrors.malformed(`GET /v2${path}`, res.status);
    const rows = parsed.data.webhooks ?? [];
    const before = webhooks.length;
    for (const h of rows) if (!webhooks.some((w) => w.id === h.id)) webhooks.push(h);
    const total = parsed.data.pagination?.total;
    if (rows.length === 0 || total === undefined || webhooks.length >= total) return { webhooks, complete: true };
    // A page with nothing new (an API that ignores offset) would repeat forever: stop, and say the listing is partial.
    if (webhooks.length === before) break;
  }
  return { webhooks, complete: false };
}

/** POST /v2/sites/{siteId}/webhooks. The platform refuses site tokens here (403). */
export async function createSiteWebhook(
  client: SitePlatformClient,
  siteId: string,
  input: { triggerType: string; url: string; filter?: { name: string } | null },
): Promise<PlatformWebhook> {
  const path = `/sites/${encodeURIComponent(siteId)}/webhooks`;
  const body: Record<string, unknown> = { triggerType: input.triggerType, url: input.url };
  if (input.filter) body.filter = { name: input.filter.name };
  const res = await client.request({ method: 'POST', base: 'v2', path, body });
  const parsed = webhookSchema.safeParse(res.body);
  if (!parsed.success) throw sitePlatformErrors.malformed(`POST /v2${path}`, res.status);
  return parsed.data;
}

/** DELETE /v2/webhooks/{webhookId}: resolves on a 2xx; a platform 404 rejects with a coded 404 ApiError. */
export async function deleteWebhook(client: SitePlatformClient, webhookId: string): Promise<void> {
  await client.request({ method: 'DELETE', base: 'v2', path: `/webhooks/${encodeURIComponent(webhookId)}` });
}
