import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { idParams } from '../../http/ids';
import { listEnvelope, listEnvelopeSchema, pageQuery } from '../../http/pagination';
import { route, type RouteDef } from '../../http/route';
import { domainName, MAX_LABEL, MAX_NAME } from './name';
import * as domains from './service';
import type { DomainRow } from './service';
import { recordName, recordValue } from './verification';
import * as docs from './docs';

const tags = ['Email domains'];
const auth = { kind: 'emailKey', scope: 'email:domains' } as const;

const timestamp = z.string().meta({ format: 'date-time', description: 'ISO 8601 timestamp (UTC).' });

const domainSchema = z.object({
  id: z.string().meta({ format: 'uuid' }),
  name: z.string().describe('The domain, lowercase.'),
  status: z
    .enum(['pending', 'verified', 'failed'])
    .describe(
      '`pending` until the first check; `verified` when the TXT record matched at the last check (sends from it are allowed); ' +
        '`failed` when it did not (see `last_check_error`).',
    ),
  record: z
    .object({
      type: z.literal('TXT'),
      name: z.string().describe('`_workyard.<domain>`'),
      value: z.string().describe('`workyard-verification=<token>`; publish it exactly.'),
    })
    .describe('The DNS record to publish before calling verify.'),
  verified_at: timestamp.nullable().describe('When the last check matched; null unless `verified`.'),
  last_checked_at: timestamp.nullable(),
  last_check_error: z
    .string()
    .nullable()
    .describe(
      'Why the last check failed: `record not found` (no TXT record at the name) or `value differs` (TXT records exist, none holds the value).',
    ),
  created_at: timestamp,
  updated_at: timestamp,
});

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const toDomainJson = (d: DomainRow): z.infer<typeof domainSchema> => ({
  id: d.id,
  name: d.name,
  status: d.status,
  record: { type: 'TXT', name: recordName(d.name), value: recordValue(d.verification_token) },
  verified_at: iso(d.verified_at),
  last_checked_at: iso(d.last_checked_at),
  last_check_error: d.last_check_error,
  created_at: d.created_at.toISOString(),
  updated_at: d.updated_at.toISOString(),
});

const createBody = z.strictObject({
  name: domainName().describe(
    `The sender domain, e.g. \`mail.example.com\`: lowercased; at most ${MAX_NAME} characters, labels of 1..${MAX_LABEL} ` +
      'letters, digits and inner hyphens, at least two labels; no IP address, no trailing dot (internationalised names in their xn-- form).',
  ),
});

const notFound = {
  status: 404,
  code: 'domain_not_found',
  description: "No domain with this id in your account (also for a malformed id or another account's).",
};

export function emailDomainRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'post',
        path: '/v1/email/domains',
        operationId: 'createEmailDomain',
        tags,
        auth,
        idempotent: true,
        summary: 'Add a sender domain.',
        description: docs.createEmailDomainDescription,
        body: createBody,
        responses: { 201: { description: 'The domain, pending', schema: domainSchema } },
        errors: [{ status: 409, code: 'domain_exists', description: docs.domainExistsError }],
      },
      async ({ body, auth: caller, deps }) => ({
        status: 201,
        body: toDomainJson(await domains.createDomain(deps.db, accountOf(caller), body.name)),
      }),
    ),

    route(
      {
        method: 'get',
        path: '/v1/email/domains',
        operationId: 'listEmailDomains',
        tags,
        auth,
        summary: 'List sender domains, newest first.',
        description: docs.listEmailDomainsDescription,
        query: z.strictObject({ ...pageQuery }),
        responses: { 200: { description: 'A page of domains', schema: listEnvelopeSchema(domainSchema) } },
      },
      async ({ query, auth: caller, deps }) => {
        const { rows, total } = await domains.listDomains(deps.db, accountOf(caller), query);
        return { body: listEnvelope(rows.map(toDomainJson), total, query) };
      },
    ),

    route(
      {
        method: 'get',
        path: '/v1/email/domains/{id}',
        operationId: 'getEmailDomain',
        tags,
        auth,
        summary: 'Get a sender domain.',
        params: idParams,
        responses: { 200: { description: 'The domain', schema: domainSchema } },
        errors: [notFound],
      },
      async ({ params, auth: caller, deps }) => ({ body: toDomainJson(await domains.getDomain(deps.db, accountOf(caller), params.id)) }),
    ),

    route(
      {
        method: 'post',
        path: '/v1/email/domains/{id}/verify',
        operationId: 'verifyEmailDomain',
        tags,
        auth,
        summary: "Check the domain's TXT record now.",
        description: docs.verifyEmailDomainDescription,
        params: idParams,
        responses: { 200: { description: 'The domain after the check', schema: domainSchema } },
        errors: [
          notFound,
          { status: 502, code: 'dns_lookup_failed', description: docs.dnsLookupFailedError },
          {
            status: 503,
            code: 'dns_not_configured',
            description: 'EMAIL_DNS_SERVERS holds an entry that is not an ip, ip:port or [ipv6]:port.',
          },
        ],
      },
      async ({ params, auth: caller, deps }) => ({
        body: toDomainJson(await domains.verifyDomain(deps.db, deps.config, accountOf(caller), params.id)),
      }),
    ),

    route(
      {
        method: 'delete',
        path: '/v1/email/domains/{id}',
        operationId: 'deleteEmailDomain',
        tags,
        auth,
        summary: 'Delete a sender domain.',
        description: 'Sends from it are refused at once on this replica and within 5 s on others.',
        params: idParams,
        responses: { 204: { description: 'Deleted' } },
        errors: [notFound],
      },
      async ({ params, auth: caller, deps }) => {
        await domains.deleteDomain(deps.db, accountOf(caller), params.id);
        return { status: 204 };
      },
    ),
  ];
}
