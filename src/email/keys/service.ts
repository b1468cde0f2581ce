import { hashSecret } from '../../auth/secrets';
import type { EmailScope } from '../../auth/types';
import type { Knex } from '../../db/knex';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { invalidField, invalidReference } from '../../http/fieldErrors';
import type { Page } from '../../http/pagination';
import { isUuid } from '../../http/ids';
import { keyUsage } from '../usage/keyUsage';
import { normaliseDomain } from './authenticate';
import { normaliseIpEntry } from '../../net/ipMatch';
import { emailRuntime } from './runtime';
import * as store from './store';
import { newEmailKeyToken, type EmailEnvironment } from './token';

export interface NewEmailKey {
  name: string;
  environment: EmailEnvironment;
  scopes: EmailScope[];
  /** Default 10. */
  ratePerSecond?: number;
  dailyCap?: number | null;
  /** Sender domains of the account (any status; a send still needs the domain verified). */
  allowedDomains?: string[] | null;
  /** IPv4/IPv6 addresses and CIDR ranges. */
  allowedIps?: string[] | null;
  createdByUserId?: string | null;
}

export interface EmailKeyPatch {
  name?: string;
  ratePerSecond?: number;
  dailyCap?: number | null;
  allowedDomains?: string[] | null;
  allowedIps?: string[] | null;
}

export const DEFAULT_RATE_PER_SECOND = 10;

// A queued batch reads its key as stored before each slice (activities/emailBatches.ts).
export { getKey } from './store';

const keyNotFound = () => new ApiError(404, 'email_key_not_found', 'email key not found');

/** Creates a key; the token (`svc_test_…` / `svc_live_…`) is in this answer only: only its hash is stored. */
export async function createEmailKey(
  deps: AppDeps,
  accountId: string,
  input: NewEmailKey,
): Promise<{ key: store.EmailKeyRow; token: string }> {
  const allowedDomains = await checkedDomains(deps, accountId, input.allowedDomains);
  const credential = newEmailKeyToken(input.environment);
  const key = await store.insertKey(deps.db, accountId, {
    id: credential.id,
    name: input.name,
    environment: input.environment,
    scopes: [...new Set(input.scopes)],
    secret_hash: hashSecret(deps.secretHashKey, credential.secret),
    secret_last4: credential.token.slice(-4),
    rate_per_second: input.ratePerSecond ?? DEFAULT_RATE_PER_SECOND,
    daily_cap: input.dailyCap ?? null,
    allowed_domains: allowedDomains,
    allowed_ips: checkedIps(input.allowedIps),
    created_by_user_id: input.createdByUserId ?? null,
    rotated_from_key_id: null,
  });
  return { key, token: credential.token };
}

export async function pageEmailKeys(deps: AppDeps, accountId: string, page: Page) {
  return store.pageKeys(deps.db, accountId, { limit: page.limit, offset: (page.page - 1) * page.limit });
}

/** The key; a malformed id, a missing one and another account's all answer 404 `email_key_not_found`. */
export async function getEmailKey(deps: AppDeps, accountId: string, id: string): Promise<store.EmailKeyRow> {
  const row = isUuid(id) ? await store.getKey(deps.db, accountId, id) : undefined;
  if (!row) throw keyNotFound();
  return row;
}

export async function getEmailKeyWithUsage(deps: AppDeps, accountId: string, id: string) {
  const key = await getEmailKey(deps, accountId, id);
  return { key, usage: await keyUsage(deps.db, accountId, key) };
}

export async function updateEmailKey(deps: AppDeps, accountId: string, id: string, patch: EmailKeyPatch): Promise<store.EmailKeyRow> {
  await getEmailKey(deps, accountId, id);
  const changes: store.EmailKeyChanges = {};
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.ratePerSecond !== undefined) changes.rate_per_second = patch.ratePerSecond;
  if (patch.dailyCap !== undefined) changes.daily_cap = patch.dailyCap;
  if (patch.allowedDomains !== undefined) changes.allowed_domains = await checkedDomains(deps, accountId, patch.allowedDomains);
  if (patch.allowedIps !== undefined) changes.allowed_ips = checkedIps(patch.allowedIps);
  return changeKey(deps, (trx) => store.updateKey(trx, accountId, id, changes));
}

/** Revokes the key at once on every replica; revoking again answers the key unchanged. */
export async function revokeEmailKey(deps: AppDeps, accountId: string, id: string): Promise<store.EmailKeyRow> {
  await getEmailKey(deps, accountId, id);
  return changeKey(deps, (trx) => store.revokeKey(trx, accountId, id));
}

/** A new key with the old one's settings; the old key is revoked at once. A revoked key cannot be rotated (409). */
export async function rotateEmailKey(deps: AppDeps, accountId: string, id: string, userId: string | null) {
  await getEmailKey(deps, accountId, id);
  let created: store.EmailKeyRow | undefined;
  let token = '';
  const replaced = await changeKey(deps, async (trx) => {
    const old = await store.lockKey(trx, accountId, id);
    if (!old) return undefined;
    if (old.revoked_at) throw new ApiError(409, 'email_key_revoked', 'a revoked key cannot be rotated; create a new key');
    const fresh = newEmailKeyToken(old.environment);
    token = fresh.token;
    created = await store.insertKey(trx, accountId, {
      id: fresh.id,
      name: old.name,
      environment: old.environment,
      scopes: old.scopes,
      secret_hash: hashSecret(deps.secretHashKey, fresh.secret),
      secret_last4: fresh.token.slice(-4),
      rate_per_second: old.rate_per_second,
      daily_cap: old.daily_cap,
      allowed_domains: old.allowed_domains,
      allowed_ips: old.allowed_ips,
      created_by_user_id: userId,
      rotated_from_key_id: old.id,
    });
    return store.revokeKey(trx, accountId, id);
  });
  return { key: created!, token, replaced };
}

/** A change in one transaction with its NOTIFY (other replicas reload the key), then applied to this process's keyring. */
async function changeKey(deps: AppDeps, change: (trx: Knex.Transaction) => Promise<store.EmailKeyRow | undefined>) {
  const row = await deps.db.transaction(async (trx) => {
    const changed = await change(trx);
    if (changed) await store.notifyKeyChanged(trx, changed.id);
    return changed;
  });
  if (!row) throw keyNotFound();
  emailRuntime(deps).keyring.applied(row);
  return row;
}

async function checkedDomains(deps: AppDeps, accountId: string, domains: string[] | null | undefined): Promise<string[] | null> {
  if (!domains) return null;
  const names = [...new Set(domains.map(normaliseDomain))];
  const known = new Set(await store.existingDomains(deps.db, accountId, names));
  const missing = domains.findIndex((d) => !known.has(normaliseDomain(d)));
  if (missing >= 0) throw invalidReference(`allowed_domains.${missing}`, 'sender domain');
  return names;
}

function checkedIps(entries: string[] | null | undefined): string[] | null {
  if (!entries) return null;
  const normalised = entries.map((entry, i) => {
    const result = normaliseIpEntry(entry);
    if (!result.ok) throw invalidField(`body.allowed_ips.${i}`, result.message);
    return result.entry;
  });
  return [...new Set(normalised)];
}
