// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.
import * as domains from './service';

export const createEmailDomainDescription =
  'Answers 201 with `status: pending` and the TXT record to publish. Publish it at your DNS provider, then call ' +
  '`POST /v1/email/domains/{id}/verify`. Sends from the domain need it `verified`. Honours `Idempotency-Key`.';

export const domainExistsError = 'The account already has this domain. Nothing is written.';

export const listEmailDomainsDescription = 'Answers `{ data, total, page, limit }`; `page` defaults to 1, `limit` to 25 (at most 100).';

export const dnsLookupFailedError =
  'The DNS server failed or did not answer in time (`dns_error`: ESERVFAIL, EREFUSED, ETIMEOUT …). Nothing changed; try again later.';

export const verifyEmailDomainDescription =
  "Looks up TXT records at `_workyard.<domain>` (the servers of EMAIL_DNS_SERVERS, else the system's; " +
  `${domains.DNS_LOOKUP_TIMEOUT_MS / 1000} s at most). A record equal to the published value (outer spaces ignored) makes the domain \`verified\`; ` +
  'no TXT record (`record not found`) or none with the value (`value differs`) makes it `failed` with the reason in ' +
  '`last_check_error` — also when it was verified before, so sends from it stop. Call it again any time. ' +
  'A DNS failure (SERVFAIL, REFUSED, timeout) proves nothing about the record: it answers 502 `dns_lookup_failed` and changes nothing, ' +
  'so a verified domain keeps sending through a resolver outage. Sends see the new status at once on this replica and within 5 s on others.';
