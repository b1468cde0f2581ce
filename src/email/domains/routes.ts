import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { idParams } from '../../http/ids';
import { listEnvelope, listEnvelopeSchema, pageQuery } from '../../http/pagination';
import { route, type RouteDef } from '../../http/route';
import { domainName, MAX_LABEL, MAX_NAME } from './name';
import * as domains from './service';
import { domainRecordSchema, domainSchema, toDomainJson, toDomainRecordJson } from './domainJson';
import * as docs from './docs';

const tags = ['Email domains'];
const auth = { kind: 'emailKey', scope: 'email:domains' } as const;

const createBody = z.strictObject({
  name: domainName().describe(
    `The sender domain, e.g. \`mail.example.com\`: lowercased; at most ${MAX_NAME} characters, labels of 1..${MAX_LABEL} ` +
      'letters, digits and inner hyphens, at least two labels; no IP address, no trailing dot (internationalised names in their xn-- form).',
  ),
});

const patchBody = z.strictObject({
  open_tracking: z.boolean().optional().describe('Add a tracking pixel to the html of live mail from the domain.'),
  click_tracking: z.boolean().optional().describe('Send the http(s) links of its html through this service.'),
  tracking_host: z
    .string()
    .max(MAX_NAME, { error: `must be at most ${MAX_NAME} characters` })
    .nullable()
    .optional()
    .describe('A name under the domain (e.g. `track.<domain>`) to serve tracked links from once its CNAME verifies; null to stop.'),
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
        responses: { 201: { description: 'The domain, pending, with every record to publish', schema: domainSchema } },
        errors: [{ status: 409, code: 'domain_exists', description: docs.domainExistsError }],
      },
      async ({ body, auth: caller, deps }) => ({
        status: 201,
        body: toDomainJson(await domains.addDomain(deps, accountOf(caller), body.name)),
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
        const { rows, total } = await domains.listDomains(deps, accountOf(caller), query);
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
      async ({ params, auth: caller, deps }) => ({ body: toDomainJson(await domains.domainDetails(deps, accountOf(caller), params.id)) }),
    ),

    route(
      {
        method: 'patch',
        path: '/v1/email/domains/{id}',
        operationId: 'updateEmailDomain',
        tags,
        auth,
        summary: "Change a sender domain's open and click tracking.",
        description: docs.updateEmailDomainDescription,
        params: idParams,
        body: patchBody,
        responses: { 200: { description: 'The domain', schema: domainSchema } },
        errors: [notFound, { status: 422, code: 'tracking_not_configured', description: docs.trackingNotConfiguredError }],
      },
      async ({ params, body, auth: caller, deps }) => ({
        body: toDomainJson(
          await domains.updateTracking(deps, accountOf(caller), params.id, {
            openTracking: body.open_tracking,
            clickTracking: body.click_tracking,
            trackingHost: body.tracking_host,
          }),
        ),
      }),
    ),

    route(
      {
        method: 'post',
        path: '/v1/email/domains/{id}/verify',
        operationId: 'verifyEmailDomain',
        tags,
        auth,
        summary: "Check the domain's DNS records now.",
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
        body: toDomainJson(await domains.verifyDomain(deps, accountOf(caller), params.id)),
      }),
    ),

    route(
      {
        method: 'post',
        path: '/v1/email/domains/{id}/dkim/rotate',
        operationId: 'rotateEmailDomainDkimKey',
        tags,
        auth,
        idempotent: true,
        summary: 'Start using a new DKIM key.',
        description: docs.rotateDkimDescription,
        params: idParams,
        responses: { 201: { description: "The new key's DNS record, pending", schema: domainRecordSchema } },
        errors: [notFound],
      },
      async ({ params, auth: caller, deps }) => ({
        status: 201,
        body: toDomainRecordJson(await domains.rotateDkimKey(deps, accountOf(caller), params.id)),
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
        description: 'Sends from it are refused at once on this replica and within 5 s on others; its DKIM keys are deleted.',
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
