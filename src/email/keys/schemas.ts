import { z } from 'zod';
import { EMAIL_SCOPES } from '../../auth/types';
import type { KeyUsage } from '../usage/keyUsage';
import { normaliseIpEntry } from '../../net/ipMatch';
import type { EmailKeyRow } from './store';
import { displayOf } from './token';

/** Request and response shapes of the email key management routes. The secret never appears in a response but one. */

export const MAX_ALLOWLIST = 100;
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

const name = z.string().trim().min(1).max(100).describe('A label for people, e.g. the service that holds the key. 1..100 characters.');
const scope = z.enum(EMAIL_SCOPES, { error: (issue) => `unknown scope ${JSON.stringify(issue.input)}; known: ${EMAIL_SCOPES.join(', ')}` });
const ratePerSecond = z.number().int().min(1).max(10_000);
const dailyCap = z.number().int().min(1).max(100_000_000);

const domain = z
  .string()
  .trim()
  .toLowerCase()
  .transform((d) => d.replace(/\.$/, ''))
  .pipe(z.string().regex(DOMAIN, { error: 'must be a domain name such as mail.example.com' }));
const ipEntry = z.string().transform((raw, ctx) => {
  const result = normaliseIpEntry(raw);
  if (!result.ok) {
    ctx.addIssue({ code: 'custom', message: result.message });
    return z.NEVER;
  }
  return result.entry;
});

const domains = z
  .array(domain)
  .min(1, { error: 'send null (or leave it out) for no domain allowlist' })
  .max(MAX_ALLOWLIST)
  .describe(
    'Sender domains the key may send from; each must be a sender domain of the account (pending or verified: ' +
      'a send still needs the domain verified). A domain not in the account is 400 `invalid_reference`. Absent or null: any verified domain of the account.',
  );
const ips = z
  .array(ipEntry)
  .min(1, { error: 'send null (or leave it out) for no IP allowlist' })
  .max(MAX_ALLOWLIST)
  .describe(
    'IPv4/IPv6 addresses and CIDR ranges (`203.0.113.7`, `10.0.0.0/8`, `2001:db8::/32`) the key accepts requests from; ' +
      'anything else is 403 `ip_not_allowed`. The source is the connecting peer; `X-Forwarded-For` counts only from the ' +
      'proxies the server trusts (TRUST_PROXY). An IPv4-mapped IPv6 source (`::ffff:1.2.3.4`) matches as its IPv4 address. ' +
      'Stored normalised (the network address of a range). Absent or null: any source.',
  );

export const createKeyBody = z.strictObject({
  name,
  environment: z
    .enum(['test', 'live'])
    .describe('`test` keys (`svc_test_…`) simulate sends and use no daily quota; `live` keys (`svc_live_…`) send mail.'),
  scopes: z
    .array(scope)
    .min(1)
    .max(EMAIL_SCOPES.length)
    .refine((list) => new Set(list).size === list.length, { error: 'scopes must not repeat' })
    .describe(
      `What the key may do, a non-empty subset of ${EMAIL_SCOPES.join(', ')} without repeats; a route needing another scope answers 403 \`missing_scope\`.`,
    ),
  rate_per_second: ratePerSecond
    .default(10)
    .describe('Emails per second, 1..10000, default 10 (see the route description for several replicas).'),
  daily_cap: dailyCap.nullable().optional().describe('Live emails per UTC day; absent or null: no daily cap.'),
  allowed_domains: domains.nullable().optional(),
  allowed_ips: ips.nullable().optional(),
});

export const patchKeyBody = z.strictObject({
  name: name.optional(),
  rate_per_second: ratePerSecond.optional().describe('Emails per second, 1..10000.'),
  daily_cap: dailyCap.nullable().optional().describe('Live emails per UTC day; null removes the cap.'),
  allowed_domains: domains.nullable().optional().describe('Replaces the domain allowlist; null removes it.'),
  allowed_ips: ips.nullable().optional().describe('Replaces the IP allowlist; null removes it.'),
});

export const rotateKeyBody = z.strictObject({}).optional();

const timestamp = z.string().meta({ format: 'date-time' });

export const emailKeySchema = z
  .object({
    id: z.string().meta({ format: 'uuid' }),
    object: z.literal('email_key'),
    name: z.string(),
    environment: z.enum(['test', 'live']),
    display: z
      .string()
      .describe('The prefix and last 4 characters (`svc_live_…AbCd`): the secret itself is shown once, at creation or rotation.'),
    scopes: z.array(z.enum(EMAIL_SCOPES)),
    rate_per_second: z.number().int(),
    daily_cap: z.number().int().nullable(),
    allowed_domains: z.array(z.string()).nullable(),
    allowed_ips: z.array(z.string()).nullable(),
    status: z.enum(['active', 'revoked']),
    rotated_from_key_id: z.string().nullable().describe('The key this one replaced by rotation.'),
    last_used_at: timestamp.nullable().describe('Last successful authentication (written about once a second).'),
    revoked_at: timestamp.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'EmailKey' });

export const usageSchema = z
  .object({
    last_used_at: timestamp.nullable(),
    sends_lifetime: z.number().int().describe('Emails sent (live and test) since the key was created.'),
    sends_last_30_days: z.number().int().describe('Emails sent today and the 29 UTC days before.'),
    rate_limit_hits: z.number().int().describe('Requests refused with 429 (`rate_limit_exceeded` or `daily_quota_exceeded`).'),
    failed_auth_attempts: z.number().int().describe('Requests that named this key with a wrong secret, or after it was revoked (401).'),
  })
  .meta({ id: 'EmailKeyUsage' });

export const keyWithUsageSchema = emailKeySchema.extend({ usage: usageSchema }).meta({ id: 'EmailKeyWithUsage' });

export const createdKeySchema = emailKeySchema
  .extend({
    secret: z
      .string()
      .describe(
        'The key, sent as `Authorization: Bearer <secret>`. Shown in this response only (and its idempotent replays): only a hash is stored.',
      ),
  })
  .meta({ id: 'EmailKeyWithSecret' });

export const rotatedKeySchema = createdKeySchema
  .extend({
    replaced_key: emailKeySchema.describe('The old key, now revoked.'),
  })
  .meta({ id: 'RotatedEmailKey' });

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toEmailKey(row: EmailKeyRow): z.infer<typeof emailKeySchema> {
  return {
    id: row.id,
    object: 'email_key',
    name: row.name,
    environment: row.environment,
    display: displayOf(row.environment, row.secret_last4),
    scopes: row.scopes,
    rate_per_second: row.rate_per_second,
    daily_cap: row.daily_cap,
    allowed_domains: row.allowed_domains,
    allowed_ips: row.allowed_ips,
    status: row.revoked_at ? 'revoked' : 'active',
    rotated_from_key_id: row.rotated_from_key_id,
    last_used_at: iso(row.last_used_at),
    revoked_at: iso(row.revoked_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function toEmailKeyWithUsage(row: EmailKeyRow, usage: KeyUsage) {
  return { ...toEmailKey(row), last_used_at: usage.last_used_at, usage };
}
