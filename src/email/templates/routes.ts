import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { idParams } from '../../http/ids';
import { listEnvelope, listEnvelopeSchema, pageQuery } from '../../http/pagination';
import { route, type RouteDef } from '../../http/route';
import { contentField, nameField, subjectField, templateSchema, templateSummarySchema, type TemplateJson } from './schemas';
import * as templates from './service';
import type { TemplateRow } from './service';
import * as docs from './docs';

const tags = ['Email templates'];
const auth = { kind: 'emailKey', scope: 'email:templates' } as const;

const toSummaryJson = (t: TemplateRow): Omit<TemplateJson, 'html' | 'text'> => ({
  id: t.id,
  name: t.name,
  subject: t.subject,
  variables: templates.templateVariables(t),
  created_at: t.created_at.toISOString(),
  updated_at: t.updated_at.toISOString(),
});

const toTemplateJson = (t: TemplateRow): TemplateJson => ({ ...toSummaryJson(t), html: t.html, text: t.text });

const createBody = z.strictObject({
  name: nameField(),
  subject: subjectField(),
  html: contentField('html').optional(),
  text: contentField('text').optional(),
});

const patchBody = z.strictObject({
  name: nameField().optional(),
  subject: subjectField().optional(),
  html: contentField('html').optional().describe('null or "" clears it, as long as text remains.'),
  text: contentField('text').optional().describe('null or "" clears it, as long as html remains.'),
});

const notFound = {
  status: 404,
  code: 'template_not_found',
  description: "No template with this id in your account (also for a malformed id or another account's).",
};
const nameTaken = { status: 409, code: 'template_name_taken', description: docs.templateNameTakenError };
const invalid = { status: 400, code: 'validation_failed', description: docs.validationFailedError };

export function emailTemplateRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'post',
        path: '/v1/email/templates',
        operationId: 'createEmailTemplate',
        tags,
        auth,
        idempotent: true,
        summary: 'Create an email template.',
        description: docs.createEmailTemplateDescription,
        body: createBody,
        responses: { 201: { description: 'The template', schema: templateSchema } },
        errors: [invalid, nameTaken],
      },
      async ({ body, auth: caller, deps }) => {
        const row = await templates.createTemplate(deps.db, accountOf(caller), {
          name: body.name,
          subject: body.subject,
          html: body.html ?? null,
          text: body.text ?? null,
        });
        return { status: 201, body: toTemplateJson(row) };
      },
    ),

    route(
      {
        method: 'get',
        path: '/v1/email/templates',
        operationId: 'listEmailTemplates',
        tags,
        auth,
        summary: 'List email templates, by name.',
        description: docs.listEmailTemplatesDescription,
        query: z.strictObject({ ...pageQuery }),
        responses: {
          200: { description: 'A page of templates', schema: listEnvelopeSchema(templateSummarySchema, 'data', 'EmailTemplateList') },
        },
      },
      async ({ query, auth: caller, deps }) => {
        const { rows, total } = await templates.listTemplates(deps.db, accountOf(caller), query);
        return { body: listEnvelope(rows.map(toSummaryJson), total, query) };
      },
    ),

    route(
      {
        method: 'get',
        path: '/v1/email/templates/{id}',
        operationId: 'getEmailTemplate',
        tags,
        auth,
        summary: 'Get an email template, with the variables it uses.',
        params: idParams,
        responses: { 200: { description: 'The template', schema: templateSchema } },
        errors: [notFound],
      },
      async ({ params, auth: caller, deps }) => ({
        body: toTemplateJson(await templates.getTemplate(deps.db, accountOf(caller), params.id)),
      }),
    ),

    route(
      {
        method: 'patch',
        path: '/v1/email/templates/{id}',
        operationId: 'updateEmailTemplate',
        tags,
        auth,
        summary: 'Update an email template.',
        description: docs.updateEmailTemplateDescription,
        params: idParams,
        body: patchBody,
        responses: { 200: { description: 'The template', schema: templateSchema } },
        errors: [notFound, invalid, nameTaken],
      },
      async ({ params, body, auth: caller, deps }) => ({
        body: toTemplateJson(await templates.updateTemplate(deps.db, accountOf(caller), params.id, body)),
      }),
    ),

    route(
      {
        method: 'delete',
        path: '/v1/email/templates/{id}',
        operationId: 'deleteEmailTemplate',
        tags,
        auth,
        summary: 'Delete an email template.',
        description: 'Sends that name it afterwards answer 400 `template_not_found`.',
        params: idParams,
        responses: { 204: { description: 'Deleted' } },
        errors: [notFound],
      },
      async ({ params, auth: caller, deps }) => {
        await templates.deleteTemplate(deps.db, accountOf(caller), params.id);
        return { status: 204 };
      },
    ),
  ];
}
