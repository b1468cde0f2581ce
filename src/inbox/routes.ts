import { z } from 'zod';
import { accountOf } from '../auth/authenticate';
import { iso } from '../http/fields';
import { idParams } from '../http/ids';
import { listEnvelope, listEnvelopeSchema, pageQuery } from '../http/pagination';
import { route, type RouteDef } from '../http/route';
import * as inbox from './service';
import type { InboxItemRow } from './service';
import * as docs from './docs';

const tags = ['Inbox'];
const auth = { kind: 'session' } as const;
const urgency = z.enum(['low', 'normal', 'urgent']);

const listQuery = z.strictObject({
  urgency: urgency.optional().describe('Only items of this urgency.'),
  resolved: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional()
    .describe('`false`: open items only; `true`: resolved items only; both when absent.'),
  kind: z.string().min(1).max(100).optional().describe('Only items of this kind, e.g. `commerce_subscription_billing_failed`.'),
  ...pageQuery,
});

const itemSchema = z
  .object({
    id: z.string(),
    kind: z.string().describe('What raised the item, snake_case (e.g. `commerce_webhook_failed`).'),
    urgency,
    dedup_key: z.string().nullable().describe('While an item with this key is open, raising the same key again adds nothing.'),
    title: z.string(),
    body: z.record(z.string(), z.unknown()).describe('Machine-readable details; their shape depends on `kind`.'),
    resolved: z.boolean(),
    created_at: z.string(),
    resolved_at: z.string().nullable(),
  })
  .meta({ id: 'InboxItem' });

const toItemJson = (r: InboxItemRow): z.infer<typeof itemSchema> => ({
  id: r.id,
  kind: r.kind,
  urgency: r.urgency,
  dedup_key: r.dedup_key,
  title: r.title,
  body: r.body,
  resolved: r.resolved_at !== null,
  created_at: r.created_at.toISOString(),
  resolved_at: iso(r.resolved_at),
});

const notFound = {
  status: 404,
  code: 'inbox_item_not_found',
  description: 'No inbox item with this id in your account (also for a malformed id).',
};

/** The account's inbox: problems that sweeps, alerts and webhook handlers found, for a person to act on. */
export function inboxRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'get',
        path: '/api/inbox',
        operationId: 'listInboxItems',
        tags,
        auth,
        summary: 'List inbox items, newest first.',
        description: docs.listInboxItemsDescription,
        query: listQuery,
        responses: { 200: { description: 'A page of inbox items', schema: listEnvelopeSchema(itemSchema) } },
      },
      async ({ query, auth, deps }) => {
        const { page, limit, ...filter } = query;
        const { rows, total } = await inbox.listInboxItems(deps.db, accountOf(auth), filter, { page, limit });
        return { body: listEnvelope(rows.map(toItemJson), total, { page, limit }) };
      },
    ),

    route(
      {
        method: 'post',
        path: '/api/inbox/{id}/resolve',
        operationId: 'resolveInboxItem',
        tags,
        auth,
        summary: 'Resolve an inbox item.',
        description: docs.resolveInboxItemDescription,
        params: idParams,
        responses: { 200: { description: 'The resolved item', schema: itemSchema } },
        errors: [notFound],
      },
      async ({ params, auth, deps }) => ({ body: toItemJson(await inbox.resolveInboxItem(deps.db, accountOf(auth), params.id)) }),
    ),
  ];
}
