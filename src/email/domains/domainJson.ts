import { z } from 'zod';
import type { DomainDetails } from './details';
import { RETIRING_KEY_DAYS, RETURN_PATH_LABEL, type DomainRecord } from './records';
import { recordName, recordValue } from './verification';

const timestamp = z.string().meta({ format: 'date-time', description: 'ISO 8601 timestamp (UTC).' });
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

const checkStatus = z.enum(['pending', 'verified', 'failed']);

export const domainRecordSchema = z
  .object({
    purpose: z
      .enum(['ownership', 'dkim', 'return_path_mx', 'return_path_spf', 'tracking_cname', 'dmarc'])
      .describe(
        '`ownership`: proves the domain is yours. `dkim`: the public key receivers check signatures with. ' +
          `\`return_path_mx\` and \`return_path_spf\`: make \`${RETURN_PATH_LABEL}.<domain>\` the envelope sender (MAIL FROM), which receives ` +
          'bounces and makes SPF align with your From domain. `tracking_cname`: points your `tracking_host` at this service, so tracked ' +
          'links and the open pixel use your name once it verifies. `dmarc`: the policy receivers apply to mail failing both.',
      ),
    type: z.enum(['TXT', 'MX', 'CNAME']),
    name: z.string().describe('The full record name (some DNS providers want only the part before your domain).'),
    value: z
      .string()
      .describe(
        'What to publish, exactly. A DKIM value is longer than 255 characters: DNS providers split it into several strings of one record, which is fine.',
      ),
    priority: z.number().int().optional().describe('MX only: the preference.'),
    requirement: z
      .enum(['required', 'recommended'])
      .describe(
        '`required`: needed to send (ownership for any key, DKIM for live keys), for SPF alignment (return path) or for links on your tracking host. ' +
          '`recommended`: DMARC, and a retiring DKIM key until `remove_after`.',
      ),
    status: checkStatus.describe(
      '`pending` until checked (or, for the return path, until checked against the current return-path domain); ' +
        '`verified` when the last check found the value; `failed` when it did not (see `last_check_error`).',
    ),
    verified_at: timestamp.nullable().describe('When the last check found the value; null unless `verified`.'),
    last_checked_at: timestamp.nullable(),
    last_check_error: z
      .string()
      .nullable()
      .describe(
        '`record not found` (no record of the type at the name), `value differs` (records exist, none holds the value), ' +
          '`more than one SPF record` (a permanent SPF error), or `record name longer than 253 characters`.',
      ),
    selector: z.string().optional().describe('DKIM only: the selector (`wy1`, `wy2`, … one per key, never reused).'),
    key_state: z
      .enum(['pending', 'active', 'retiring'])
      .optional()
      .describe(
        'DKIM only. `pending`: publish the record and verify; the key signs nothing yet. `active`: the key that signs. ' +
          '`retiring`: replaced by a newer key whose record verified; it signs nothing.',
      ),
    remove_after: timestamp
      .nullable()
      .optional()
      .describe(`DKIM only: for a retiring key, when its record may be removed (${RETIRING_KEY_DAYS} days after it stopped signing).`),
  })
  .meta({ id: 'EmailDomainRecord', description: 'A DNS record to publish, with its last check.' });

export const domainSchema = z
  .object({
    id: z.string().meta({ format: 'uuid' }),
    name: z.string().describe('The domain, lowercase.'),
    status: checkStatus.describe(
      'Ownership: `pending` until the first check; `verified` when the ownership record matched at the last check ' +
        '(test keys may send from it); `failed` when it did not (see `last_check_error`).',
    ),
    dkim_status: checkStatus.describe(
      "`verified` when the active DKIM key's record matched at the last check (live keys may send from it); `failed` when " +
        'the last check of the key that counts (the active one, else the pending one) failed; else `pending`.',
    ),
    sending: z
      .object({
        test: z.boolean().describe('Test keys may send from the domain: ownership verified.'),
        live: z.boolean().describe('Live keys may send from the domain: ownership and DKIM verified.'),
      })
      .describe('What the domain may send now.'),
    record: z
      .object({
        type: z.literal('TXT'),
        name: z.string().describe('`_workyard.<domain>`'),
        value: z.string().describe('`workyard-verification=<token>`; publish it exactly.'),
      })
      .describe('The ownership record (also the first entry of `records`).'),
    records: z.array(domainRecordSchema).describe('Every DNS record the domain needs, each with its own check.'),
    open_tracking: z
      .boolean()
      .describe(
        'Live mail from the domain with an html part carries a 1×1 pixel per recipient; its first load is `email.opened`. Off by default.',
      ),
    click_tracking: z
      .boolean()
      .describe(
        "The http(s) links of live mail's html go through this service per recipient; the first click of each link is `email.clicked`. Off by default.",
      ),
    tracking_host: z
      .string()
      .nullable()
      .describe(
        'A name under the domain (e.g. `track.<domain>`) that tracked links and the pixel use once its `tracking_cname` record verified; ' +
          'null: they use the service URL.',
      ),
    verified_at: timestamp.nullable().describe('When the last ownership check matched; null unless `status` is `verified`.'),
    last_checked_at: timestamp.nullable(),
    last_check_error: z
      .string()
      .nullable()
      .describe(
        'Why the last ownership check failed: `record not found` (no TXT record at the name) or `value differs` (TXT records exist, none holds the value).',
      ),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'EmailDomain' });

export type DomainRecordJson = z.infer<typeof domainRecordSchema>;
export type DomainJson = z.infer<typeof domainSchema>;

export function toDomainRecordJson(r: DomainRecord): DomainRecordJson {
  return {
    purpose: r.purpose,
    type: r.type,
    name: r.name,
    value: r.value,
    ...(r.priority !== undefined ? { priority: r.priority } : {}),
    requirement: r.requirement,
    status: r.status,
    verified_at: iso(r.verifiedAt),
    last_checked_at: iso(r.lastCheckedAt),
    last_check_error: r.lastCheckError,
    ...(r.selector !== undefined ? { selector: r.selector, key_state: r.keyState, remove_after: iso(r.removeAfter) } : {}),
  };
}

export function toDomainJson({ domain: d, records, dkimStatus }: DomainDetails): DomainJson {
  return {
    id: d.id,
    name: d.name,
    status: d.status,
    dkim_status: dkimStatus,
    sending: { test: d.status === 'verified', live: d.status === 'verified' && dkimStatus === 'verified' },
    record: { type: 'TXT', name: recordName(d.name), value: recordValue(d.verification_token) },
    records: records.map(toDomainRecordJson),
    open_tracking: d.open_tracking,
    click_tracking: d.click_tracking,
    tracking_host: d.tracking_host,
    verified_at: iso(d.verified_at),
    last_checked_at: iso(d.last_checked_at),
    last_check_error: d.last_check_error,
    created_at: d.created_at.toISOString(),
    updated_at: d.updated_at.toISOString(),
  };
}
