import type { Knex } from '../../db/knex';

/** The records checked beside ownership and DKIM, one row each per domain once checked. */
export type CheckedRecord = 'return_path_mx' | 'return_path_spf' | 'dmarc' | 'tracking_cname';

export interface CheckRow {
  domain_id: string;
  account_id: string;
  record: CheckedRecord;
  /** What the record was checked against: the return-path domain, the tracking host's CNAME target (null for DMARC). */
  target: string | null;
  status: 'verified' | 'failed';
  verified_at: Date | null;
  last_checked_at: Date;
  last_check_error: string | null;
}

export interface CheckOutcome {
  record: CheckedRecord;
  target: string | null;
  verified: boolean;
  error: string | null;
}

const table = 'email_domain_checks';

export async function checksOfDomains(db: Knex, accountId: string, domainIds: string[]): Promise<CheckRow[]> {
  if (domainIds.length === 0) return [];
  return db(table).where('account_id', accountId).whereIn('domain_id', domainIds);
}

export async function recordChecks(db: Knex, accountId: string, domainId: string, outcomes: CheckOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const now = db.fn.now();
  await db(table)
    .insert(
      outcomes.map((o) => ({
        domain_id: domainId,
        account_id: accountId,
        record: o.record,
        target: o.target,
        status: o.verified ? 'verified' : 'failed',
        verified_at: o.verified ? now : null,
        last_checked_at: now,
        last_check_error: o.error,
      })),
    )
    .onConflict(['domain_id', 'record'])
    .merge(['target', 'status', 'verified_at', 'last_checked_at', 'last_check_error']);
}

/** Forgets a record's last check (its name changed: the old outcome says nothing about the new one). */
export async function deleteCheck(db: Knex, domainId: string, record: CheckedRecord): Promise<void> {
  await db(table).where({ domain_id: domainId, record }).delete();
}
