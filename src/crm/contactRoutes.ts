import { z } from 'zod';
import { accountOf } from '../auth/authenticate';
import { route, type RouteDef } from '../http/route';
import { contactSchema, toContactJson } from './contactJson';
import * as contacts from './contactService';
import { optionalText } from '../http/fields';
import { idParams } from '../http/ids';
import { listEnvelope, listEnvelopeSchema, pageQuery } from '../http/pagination';
import * as docs from './docs';

const tags = ['CRM'];
const auth = { kind: 'session' } as const;

const MAX_TAGS = 50;
const tag = z.string().trim().min(1, { error: 'a tag must not be empty' }).max(50, { error: 'a tag is at most 50 characters' });

const tagList = z
  .array(tag)
  .max(MAX_TAGS, { error: `at most ${MAX_TAGS} tags` })
  .describe(`Up to ${MAX_TAGS} tags of 1–50 characters; trimmed, duplicates dropped, case kept (tags are case-sensitive).`);

const email = z
  .string()
  .trim()
  .max(254, { error: 'must be at most 254 characters' })
  .nullable()
  .transform((v) => (v === '' || v === null ? null : v))
  .pipe(z.email({ error: 'must be an email address' }).nullable());

const contactFields = {
  name: optionalText(200).optional(),
  email: email.optional().describe('Unique per account, compared case-insensitively (409 `contact_email_taken`).'),
  company: optionalText(200).optional(),
  phone: optionalText(50).optional(),
  tags: tagList.optional(),
  notes: optionalText(10_000).optional(),
};

const createBody = z.strictObject(contactFields);
const patchBody = z.strictObject({
  ...contactFields,
  tags: tagList
    .nullable()
    .transform((v) => v ?? [])
    .optional()
    .describe('Replaces the tag list; null or [] clears it.'),
});

const listQuery = z.strictObject({
  search: z
    .string()
    .trim()
    .max(200, { error: 'search is at most 200 characters' })
    .optional()
    .describe(
      `Case-insensitive match on name or email. ${contacts.TRIGRAM_MIN_CHARS}+ characters match anywhere (substring); 1–2 characters match the start of the name or email (prefix). Empty is ignored.`,
    ),
  tag: z.string().trim().max(50).optional().describe('Only contacts carrying exactly this tag (case-sensitive). Empty is ignored.'),
  ...pageQuery,
});

const listResponse = listEnvelopeSchema(contactSchema, 'contacts');

const notFound = {
  status: 404,
  code: 'contact_not_found',
  description: 'No contact with this id in your account (also for a malformed id).',
};
const emailTaken = { status: 409, code: 'contact_email_taken', description: docs.contactEmailTakenError };

export function contactRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'get',
        path: '/api/crm/contacts',
        operationId: 'listCrmContacts',
        tags,
        auth,
        summary: 'List contacts, newest first, with search and tag filters.',
        description: docs.listCrmContactsDescription,
        query: listQuery,
        responses: { 200: { description: 'A page of contacts', schema: listResponse } },
      },
      async ({ query, auth, deps }) => {
        const { page, limit, search, tag } = query;
        const { rows, total } = await contacts.listContacts(
          deps.db,
          accountOf(auth),
          { search: search || undefined, tag: tag || undefined },
          { page, limit },
        );
        return { body: listEnvelope(rows.map(toContactJson), total, { page, limit }, 'contacts') };
      },
    ),

    route(
      {
        method: 'post',
        path: '/api/crm/contacts',
        operationId: 'createCrmContact',
        tags,
        auth,
        idempotent: true,
        summary: 'Create a contact.',
        description: docs.createCrmContactDescription,
        body: createBody,
        responses: { 201: { description: 'The contact', schema: contactSchema } },
        errors: [emailTaken],
      },
      async ({ body, auth, deps }) => {
        const row = await contacts.createContact(deps.db, accountOf(auth), { ...body, source: 'api' });
        return { status: 201, body: toContactJson(row) };
      },
    ),

    route(
      {
        method: 'patch',
        path: '/api/crm/contacts/{id}',
        operationId: 'updateCrmContact',
        tags,
        auth,
        summary: 'Update a contact partially.',
        description: docs.updateCrmContactDescription,
        params: idParams,
        body: patchBody,
        responses: { 200: { description: 'The updated contact', schema: contactSchema } },
        errors: [notFound, emailTaken],
      },
      async ({ params, body, auth, deps }) => {
        const row = await contacts.updateContact(deps.db, accountOf(auth), params.id, body);
        return { body: toContactJson(row) };
      },
    ),

    route(
      {
        method: 'delete',
        path: '/api/crm/contacts/{id}',
        operationId: 'deleteCrmContact',
        tags,
        auth,
        summary: 'Delete a contact.',
        description: docs.deleteCrmContactDescription,
        params: idParams,
        responses: { 204: { description: 'Deleted' } },
        errors: [notFound],
      },
      async ({ params, auth, deps }) => {
        await contacts.deleteContact(deps.db, accountOf(auth), params.id);
        return { status: 204 };
      },
    ),
  ];
}
