import { z } from 'zod';
import { accountOf } from '../auth/authenticate';
import type { Permission } from '../auth/permissions';
import { isoTimestamp } from '../http/fields';
import { idParams } from '../http/ids';
import { listEnvelope, listEnvelopeSchema, pageQuery } from '../http/pagination';
import { route, type Responses, type RouteDef, type RouteSpec, type SpecHandler } from '../http/route';
import * as docs from './docs';
import { submissionDetailSchema, submissionSchema, toSubmissionDetailJson, toSubmissionJson } from './json';
import * as forms from './service';

const tags = ['Forms'];
const PATH = '/forms/submissions';

const bool = (what: string) =>
  z
    .enum(['true', 'false'], { error: `${what} must be true or false` })
    .transform((v) => v === 'true')
    .optional();

const listQuery = z.strictObject({
  form_label: z.string().min(1).max(500).optional().describe('Only this form (exact label, as the platform names the form).'),
  source: z.enum(['platform']).optional().describe('Only this source.'),
  spam: bool('spam').describe('`true`: spam only; `false`: no spam.'),
  duplicate: bool('duplicate').describe('`true`: duplicates only; `false`: no duplicates.'),
  historical: bool('historical').describe('`true`: backfilled rows only; `false`: delivered rows only.'),
  include_deleted: bool('include_deleted').describe('`true` also lists soft-deleted rows (default false).'),
  since: isoTimestamp().optional().describe('Submitted at or after this instant.'),
  until: isoTimestamp().optional().describe('Submitted before this instant.'),
  email: z.string().trim().min(1).max(254).optional().describe("Only this sender's email (case-insensitive, exact)."),
  ...pageQuery,
});

const notFound = { status: 404, code: 'form_submission_not_found', description: 'No ledger row with this id in your account.' };

/** A dashboard route (session) and its agent twin (`/api/agent/…`, agent key holding `permission`), one handler. */
function twins<
  P extends z.ZodType = never,
  Q extends z.ZodType = never,
  B extends z.ZodType = never,
  const R extends Responses = Responses,
>(
  spec: Omit<RouteSpec<P, Q, B, R>, 'auth' | 'path'> & { path: string; permission: Permission },
  handler: SpecHandler<P, Q, B, R>,
): RouteDef[] {
  const { permission, path, operationId, description, ...rest } = spec;
  return [
    route<P, Q, B, R>({ ...rest, description, operationId, path: `/api${path}`, auth: { kind: 'session' } }, handler),
    route<P, Q, B, R>(
      {
        ...rest,
        description: `${description ?? ''}\n\n${docs.AGENT}`,
        operationId: `${operationId}Agent`,
        path: `/api/agent${path}`,
        auth: { kind: 'agent', permission },
      },
      handler,
    ),
  ];
}

/** The forms ledger: list with filters, read one, soft delete. */
export function formRoutes(): RouteDef[] {
  return [
    ...twins(
      {
        method: 'get',
        path: PATH,
        operationId: 'listFormSubmissions',
        tags,
        permission: 'crm:read',
        summary: 'List form submissions (the leads ledger), newest first, with filters.',
        description: docs.LIST,
        query: listQuery,
        responses: { 200: { description: 'A page of ledger rows', schema: listEnvelopeSchema(submissionSchema) } },
      },
      async ({ query, auth, deps }) => {
        const { page, limit, form_label, source, spam, duplicate, historical, include_deleted, since, until, email } = query;
        const { rows, total } = await forms.listSubmissions(
          deps.db,
          accountOf(auth),
          { formLabel: form_label, source, spam, duplicate, historical, includeDeleted: include_deleted, since, until, email },
          { page, limit },
        );
        return { body: listEnvelope(rows.map(toSubmissionJson), total, { page, limit }) };
      },
    ),
    ...twins(
      {
        method: 'get',
        path: `${PATH}/{id}`,
        operationId: 'getFormSubmission',
        tags,
        permission: 'crm:read',
        summary: 'Read one form submission.',
        description: docs.GET,
        params: idParams,
        responses: { 200: { description: 'The ledger row', schema: submissionDetailSchema } },
        errors: [notFound],
      },
      async ({ params, auth, deps }) => ({ body: toSubmissionDetailJson(await forms.getSubmission(deps.db, accountOf(auth), params.id)) }),
    ),
    ...twins(
      {
        method: 'delete',
        path: `${PATH}/{id}`,
        operationId: 'deleteFormSubmission',
        tags,
        permission: 'crm:write',
        summary: 'Soft-delete a form submission.',
        description: docs.DELETE,
        params: idParams,
        responses: { 204: { description: 'Deleted (or already deleted).' } },
        errors: [notFound],
      },
      async ({ params, auth, deps }) => {
        await forms.deleteSubmission(deps.db, accountOf(auth), params.id);
        return { status: 204 };
      },
    ),
  ];
}
