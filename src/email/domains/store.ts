import type { Knex } from '../../db/knex';
import { offsetOf, type Page } from '../../http/pagination';

export type DomainStatus = 'pending' | 'verified' | 'failed';

export interface DomainRow {
  id: string;
  account_id: string;
  name: string;
  status: DomainStatus;
  verification_token: string;
  verified_at: Date | null;
  last_checked_at: Date | null;
  last_check_error: string | null;
  /** The number of the domain's latest DKIM selector (`wy<n>`); 0 before its first key. */
  dkim_selector_seq: number;
  open_tracking: boolean;
  click_tracking: boolean;
  /** A name under the domain, CNAME of the service, that tracked links use once its record verified. */
  tracking_host: string | null;
  created_at: Date;
  updated_at: Date;
}

const table = 'email_domains';

/** The unique (account_id, name) constraint of migration 20261122004000. */
export const NAME_CONSTRAINT = 'email_domains_account_id_name_unique';

export async function insertDomain(db: Knex, accountId: string, name: string, token: string): Promise<DomainRow> {
  const [row] = await db(table).insert({ account_id: accountId, name, verification_token: token }).returning('*');
  return row;
}

/** Newest first. */
export async function listDomains(db: Knex, accountId: string, page: Page) {
  const [rows, [{ count }]] = await Promise.all([
    db(table)
      .where('account_id', accountId)
      .select('*')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(offsetOf(page)) as Promise<DomainRow[]>,
    db(table).where('account_id', accountId).count({ count: '*' }) as unknown as Promise<Array<{ count: number }>>,
  ]);
  return { rows, total: Number(count) };
}

export async function findDomain(db: Knex, accountId: string, id: string): Promise<DomainRow | undefined> {
  return db(table).where({ account_id: accountId, id }).first();
}

/** The outcome of a DNS check; undefined when the domain was deleted meanwhile. */
export async function recordCheck(
  db: Knex,
  accountId: string,
  id: string,
  outcome: { verified: boolean; error: string | null },
): Promise<DomainRow | undefined> {
  const now = db.fn.now();
  const [row] = await db(table)
    .where({ account_id: accountId, id })
    .update({
      status: outcome.verified ? 'verified' : 'failed',
      verified_at: outcome.verified ? now : null,
      last_checked_at: now,
      last_check_error: outcome.error,
      updated_at: now,
    })
    .returning('*');
  return row;
}

export interface TrackingSettings {
  open_tracking?: boolean;
  click_tracking?: boolean;
  tracking_host?: string | null;
}

/** Changes the tracking settings given; undefined when there is no such domain. */
export async function updateTracking(db: Knex, accountId: string, id: string, settings: TrackingSettings): Promise<DomainRow | undefined> {
  const [row] = await db(table)
    .where({ account_id: accountId, id })
    .update({ ...settings, updated_at: db.fn.now() })
    .returning('*');
  return row;
}

export async function deleteDomain(db: Knex, accountId: string, id: string): Promise<boolean> {
  return (await db(table).where({ account_id: accountId, id }).delete()) > 0;
}

/** The domain, locked until the transaction ends: verifications, rotations and key generation of one domain take turns. */
export async function lockDomain(trx: Knex.Transaction, accountId: string, id: string): Promise<DomainRow | undefined> {
  return trx(table).where({ account_id: accountId, id }).forUpdate().first();
}

/** The next DKIM selector number of the domain (never reused, even when a key is deleted). */
export async function nextSelectorSeq(db: Knex, id: string): Promise<number> {
  const [row] = await db(table).where('id', id).increment('dkim_selector_seq', 1).returning('dkim_selector_seq');
  return row.dkim_selector_seq;
}

export interface SendingStateRow {
  name: string;
  verified: boolean;
  dkim_verified: boolean;
  /** The return-path domain both return-path records verified against at their last check, or null. */
  return_path_target: string | null;
  open_tracking: boolean;
  click_tracking: boolean;
  tracking_host: string | null;
  /** The host the tracking host's CNAME verified against at its last check, or null. */
  tracking_host_target: string | null;
}

/** Every domain of the account with what the send path asks of it (one statement per account per cache period). */
export async function sendingStates(db: Knex, accountId: string): Promise<SendingStateRow[]> {
  const { rows } = await db.raw(
    `select d.name,
            d.status = 'verified' as verified,
            exists (select 1 from email_dkim_keys k
                     where k.domain_id = d.id and k.state = 'active' and k.status = 'verified') as dkim_verified,
            (select mx.target from email_domain_checks mx
               join email_domain_checks spf
                 on spf.domain_id = mx.domain_id and spf.record = 'return_path_spf'
                and spf.status = 'verified' and spf.target = mx.target
              where mx.domain_id = d.id and mx.record = 'return_path_mx' and mx.status = 'verified') as return_path_target,
            d.open_tracking,
            d.click_tracking,
            d.tracking_host,
            (select t.target from email_domain_checks t
              where t.domain_id = d.id and t.record = 'tracking_cname' and t.status = 'verified') as tracking_host_target
       from email_domains d
      where d.account_id = ?`,
    [accountId],
  );
  return rows as SendingStateRow[];
}
