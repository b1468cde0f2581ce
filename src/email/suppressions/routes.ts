import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { listEnvelope, listEnvelopeSchema, pageQuery } from '../../http/pagination';
import { route, type RouteDef } from '../../http/route';
import { parseMailbox } from '../send/addresses';
import * as suppressions from './service';
import type { SuppressionRow } from './store';

const tags = ['Email suppressions'];
const base = '/v1/email/suppressions';
// Reading is part of sending (a sender checks why a recipient is refused); changing the list is its own scope, so a
// key that only sends cannot lift a suppression a complaint put there.
const readAuth = { kind: 'emailKey', scope: 'email:send' } as const;
const manageAuth = { kind: 'emailKey', scope: 'email:suppressions' } as const;

const address = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    const parsed = parseMailbox(value);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error });
    else if (parsed.mailbox.name !== null) ctx.addIssue({ code: 'custom', message: 'must be a bare address, without a display name' });
  });

const listQuery = z.strictObject({
  ...pageQuery,
  email: z
    .string()
    .trim()
    .min(1)
    .max(320)
    .optional()
    .describe('Only addresses containing this text (case-insensitive), e.g. `@customer.test`.'),
});
const createBody = z.strictObject({ email: address.describe('The address to suppress (stored in lower case).') });
const emailParams = z.strictObject({ email: z.string().describe('The suppressed address (URL-encoded; case-insensitive).') });

const suppressionSchema = z
  .object({
    object: z.literal('suppression'),
    email: z.string().describe('Lower case.'),
    reason: z
      .enum(['bounce', 'complaint', 'manual', 'unsubscribe'])
      .describe(
        '`bounce`: a hard bounce (5.x.x); `complaint`: a feedback report; `manual`: added through the API; `unsubscribe`: the recipient used the one-click unsubscribe link of an email.',
      ),
    message_id: z.string().nullable().describe('The email whose bounce, complaint or unsubscribe link added it; null for `manual`.'),
    created_at: z.string().describe('ISO 8601'),
  })
  .meta({ id: 'EmailSuppression' });

const toJson = (r: SuppressionRow): z.infer<typeof suppressionSchema> => ({
  object: 'suppression',
  email: r.email,
  reason: r.reason,
  message_id: r.message_id,
  created_at: r.created_at.toISOString(),
});

const notFound = { status: 404, code: 'suppression_not_found', description: "The address is not on the account's suppression list." };

/** The account's suppression list: read with `email:send`, changed with `email:suppressions`. */
export function emailSuppressionRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'get',
        path: base,
        operationId: 'listEmailSuppressions',
        tags,
        auth: readAuth,
        summary: 'List suppressed addresses, newest first.',
        description:
          'Addresses this account no longer sends to: hard bounces, complaints and one-click unsubscribes add them automatically, `POST` by hand. A send naming one answers 422 `recipient_suppressed` and emits `email.suppressed`. Scope `email:send`.',
        query: listQuery,
        responses: { 200: { description: 'A page of suppressions', schema: listEnvelopeSchema(suppressionSchema) } },
      },
      async ({ query, auth, deps }) => {
        const { rows, total } = await suppressions.listSuppressions(deps.db, accountOf(auth), query, { email: query.email });
        return { body: listEnvelope(rows.map(toJson), total, query) };
      },
    ),

    route(
      {
        method: 'post',
        path: base,
        operationId: 'createEmailSuppression',
        tags,
        auth: manageAuth,
        summary: 'Suppress an address (reason `manual`).',
        description:
          'Scope `email:suppressions`. 201 when added; 200 with the existing entry (its first reason kept) when already suppressed.',
        body: createBody,
        responses: {
          201: { description: 'Suppressed', schema: suppressionSchema },
          200: { description: 'Already suppressed', schema: suppressionSchema },
        },
      },
      async ({ body, auth, deps }) => {
        const { row, created } = await suppressions.addSuppression(deps.db, accountOf(auth), body.email, 'manual');
        return { status: created ? 201 : 200, body: toJson(row) };
      },
    ),

    route(
      {
        method: 'get',
        path: `${base}/{email}`,
        operationId: 'getEmailSuppression',
        tags,
        auth: readAuth,
        summary: 'Whether an address is suppressed, and why.',
        params: emailParams,
        responses: { 200: { description: 'The suppression', schema: suppressionSchema } },
        errors: [notFound],
      },
      async ({ params, auth, deps }) => ({ body: toJson(await suppressions.getSuppression(deps.db, accountOf(auth), params.email)) }),
    ),

    route(
      {
        method: 'delete',
        path: `${base}/{email}`,
        operationId: 'deleteEmailSuppression',
        tags,
        auth: manageAuth,
        summary: 'Allow sends to an address again.',
        description: 'Scope `email:suppressions`. A later hard bounce, complaint or unsubscribe adds it back.',
        params: emailParams,
        responses: { 204: { description: 'Removed' } },
        errors: [notFound],
      },
      async ({ params, auth, deps }) => {
        await suppressions.removeSuppression(deps.db, accountOf(auth), params.email);
        return { status: 204 };
      },
    ),
  ];
}
