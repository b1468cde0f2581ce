// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.
import { RETIRING_KEY_DAYS, RETURN_PATH_LABEL } from './records';
import { DNS_LOOKUP_TIMEOUT_MS } from './verify';

export const createEmailDomainDescription =
  'Answers 201 with `status: pending` and every DNS record the domain needs in `records`: the ownership TXT ' +
  '`_workyard.<domain>`, the DKIM key TXT `wy<n>._domainkey.<domain>` (an RSA-2048 key made for the domain; its private ' +
  `half is stored sealed and never answered), the return path's MX and SPF TXT at \`${RETURN_PATH_LABEL}.<domain>\` (when the ` +
  'service has a return path) and a recommended DMARC TXT `_dmarc.<domain>`. Publish them at your DNS provider, then ' +
  'call `POST /v1/email/domains/{id}/verify`. Test keys send once ownership is verified; live keys also need DKIM ' +
  'verified (`sending.live`). Honours `Idempotency-Key`.';

export const domainExistsError = 'The account already has this domain. Nothing is written.';

export const listEmailDomainsDescription =
  "Answers `{ data, total, page, limit }` with each domain's records; `page` defaults to 1, `limit` to 25 (at most 100).";

export const dnsLookupFailedError =
  'A DNS server failed or did not answer in time (`dns_error`: ESERVFAIL, EREFUSED, ETIMEOUT …). Nothing changed; try again later.';

export const verifyEmailDomainDescription =
  "Looks up every record of the domain at once (the servers of EMAIL_DNS_SERVERS, else the system's; " +
  `${DNS_LOOKUP_TIMEOUT_MS / 1000} s at most each) and records each one's outcome in \`records\`. A record holding the published ` +
  'value is `verified`; none (`record not found`) or none with the value (`value differs`) is `failed` with the reason — also when it ' +
  'was verified before: a removed ownership record stops all sends from the domain, a removed DKIM record stops live sends. ' +
  'Ownership compares the TXT value exactly (outer spaces ignored); DKIM compares the key (`p=`); the return path needs every MX at ' +
  `\`${RETURN_PATH_LABEL}.<domain>\` to name the return-path host and exactly one SPF record including it; DMARC is found at ` +
  "`_dmarc.<domain>` or a parent domain's `_dmarc` and any policy counts. When a pending DKIM key (after a rotation) verifies, it " +
  'becomes the signing key and the one before it starts retiring. Call it again any time. A DNS failure (SERVFAIL, REFUSED, timeout) ' +
  'proves nothing about the records: it answers 502 `dns_lookup_failed` and changes nothing, so a verified domain keeps sending ' +
  'through a resolver outage. Sends see the new states at once on this replica and within 5 s on others.';

export const rotateDkimDescription =
  'Makes a new RSA-2048 DKIM key under a new selector (`wy<n+1>`) and answers its record, `key_state: pending`. The active ' +
  'key keeps signing until the new record is published and `POST …/verify` finds it; then the new key signs and the old one ' +
  `is \`retiring\`: keep its record ${RETIRING_KEY_DAYS} days (\`remove_after\`), so mail signed before the switch still verifies, ` +
  'then remove it. A key still pending from an earlier rotation is replaced (it never signed anything; its record can go). ' +
  'Honours `Idempotency-Key`.';

export const updateEmailDomainDescription =
  'Changes the tracking of live mail sent from the domain; only the fields given change, and the answer is the domain. ' +
  "`open_tracking`: each recipient's copy of an html message gets its own 1×1 pixel; the first time it loads is " +
  '`email.opened`. `click_tracking`: each http(s) `<a href>` of the html goes through this service with a link of that ' +
  "recipient's own, which answers 302 to the original URL; the first click of each link is `email.clicked`. mailto: and " +
  'other non-http links, List-Unsubscribe links and anchors marked `data-wy-no-track` are left as written, and the text ' +
  'part is never changed. `tracking_host` (e.g. `track.<domain>`, or null): a name whose CNAME to this service is listed ' +
  'in `records` as `tracking_cname`; links use it once `POST …/verify` finds the record, until then the service URL. ' +
  'Sends see the change at once on this replica and within 5 s on others; a message already being delivered keeps what ' +
  'its copies were made with. Mail scanners and privacy proxies load pixels and follow links too: see docs/email.md.';

export const trackingNotConfiguredError =
  'Tracking makes its links on PUBLIC_APP_URL, which is unset (or, for `tracking_host`, names an IP address a CNAME cannot ' +
  'point at). `details.field` names the field; nothing changed.';
