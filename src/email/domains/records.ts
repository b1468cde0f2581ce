import { dkimRecordName, dkimRecordValue } from '../dkim/record';
import type { DkimKeyRow, DkimKeyState } from '../dkim/store';
import type { CheckedRecord, CheckRow } from './checksStore';
import type { DomainRow } from './store';
import { recordName, recordValue } from './verification';

/** The return path's label under the sender domain: `bounces.<domain>` is the envelope (MAIL FROM) domain. */
export const RETURN_PATH_LABEL = 'bounces';
export const returnPathHost = (domain: string) => `${RETURN_PATH_LABEL}.${domain}`;
export const RETURN_PATH_MX_PRIORITY = 10;

/** A retiring key's record is still answered this many days, so mail signed before the switch still verifies. */
export const RETIRING_KEY_DAYS = 7;

/** The DMARC policy recommended to start with: collect nothing, enforce nothing, align relaxed (RFC 7489 defaults). */
export const RECOMMENDED_DMARC = 'v=DMARC1; p=none;';

/** What a domain's tracking host must be a CNAME of (PUBLIC_APP_URL's host); see src/email/tracking/links.ts. */
export type TrackingCnameTarget = string | undefined;

export const spfValue = (returnPathDomain: string) => `v=spf1 include:${returnPathDomain} ~all`;

export type RecordPurpose = 'ownership' | 'dkim' | CheckedRecord;
export type RecordStatus = 'pending' | 'verified' | 'failed';

/** What a record's check is made against: the ownership token, one DKIM key, or a checked record's target. */
export type RecordRef =
  | { kind: 'ownership'; expected: string }
  | { kind: 'dkim'; keyId: string; publicKey: string; state: DkimKeyState }
  | { kind: 'check'; record: CheckedRecord; target: string | null };

export interface DomainRecord {
  purpose: RecordPurpose;
  type: 'TXT' | 'MX' | 'CNAME';
  name: string;
  value: string;
  /** MX only. */
  priority?: number;
  requirement: 'required' | 'recommended';
  status: RecordStatus;
  verifiedAt: Date | null;
  lastCheckedAt: Date | null;
  lastCheckError: string | null;
  /** DKIM only. */
  selector?: string;
  keyState?: DkimKeyState;
  /** DKIM only, a retiring key: from when its record may be removed. */
  removeAfter?: Date | null;
  ref: RecordRef;
}

const DAY_MS = 86_400_000;

/**
 * Every DNS record the domain needs, each with its last check: ownership, the DKIM key(s), the return path's MX and
 * SPF when EMAIL_RETURN_PATH_DOMAIN is set, the tracking host's CNAME when the domain has one (and the service a
 * public host to name), and the recommended DMARC policy. A check made against another return-path domain or CNAME
 * target than today's is shown `pending`: it says nothing about today's value.
 */
export function domainRecords(
  domain: DomainRow,
  keys: DkimKeyRow[],
  checks: CheckRow[],
  returnPathDomain: string | undefined,
  trackingTarget: TrackingCnameTarget = undefined,
): DomainRecord[] {
  const records: DomainRecord[] = [ownershipRecord(domain)];
  for (const key of keys) records.push(dkimRecord(domain.name, key));
  const checked = (record: CheckedRecord, target: string | null) => {
    const row = checks.find((c) => c.record === record && c.target === target);
    return row
      ? { status: row.status, verifiedAt: row.verified_at, lastCheckedAt: row.last_checked_at, lastCheckError: row.last_check_error }
      : { status: 'pending' as const, verifiedAt: null, lastCheckedAt: null, lastCheckError: null };
  };
  if (returnPathDomain) {
    const host = returnPathHost(domain.name);
    records.push({
      purpose: 'return_path_mx',
      type: 'MX',
      name: host,
      value: returnPathDomain,
      priority: RETURN_PATH_MX_PRIORITY,
      requirement: 'required',
      ...checked('return_path_mx', returnPathDomain),
      ref: { kind: 'check', record: 'return_path_mx', target: returnPathDomain },
    });
    records.push({
      purpose: 'return_path_spf',
      type: 'TXT',
      name: host,
      value: spfValue(returnPathDomain),
      requirement: 'required',
      ...checked('return_path_spf', returnPathDomain),
      ref: { kind: 'check', record: 'return_path_spf', target: returnPathDomain },
    });
  }
  if (domain.tracking_host && trackingTarget) {
    records.push({
      purpose: 'tracking_cname',
      type: 'CNAME',
      name: domain.tracking_host,
      value: trackingTarget,
      requirement: 'required',
      ...checked('tracking_cname', trackingTarget),
      ref: { kind: 'check', record: 'tracking_cname', target: trackingTarget },
    });
  }
  records.push({
    purpose: 'dmarc',
    type: 'TXT',
    name: `_dmarc.${domain.name}`,
    value: RECOMMENDED_DMARC,
    requirement: 'recommended',
    ...checked('dmarc', null),
    ref: { kind: 'check', record: 'dmarc', target: null },
  });
  return records;
}

function ownershipRecord(domain: DomainRow): DomainRecord {
  const value = recordValue(domain.verification_token);
  return {
    purpose: 'ownership',
    type: 'TXT',
    name: recordName(domain.name),
    value,
    requirement: 'required',
    status: domain.status,
    verifiedAt: domain.verified_at,
    lastCheckedAt: domain.last_checked_at,
    lastCheckError: domain.last_check_error,
    ref: { kind: 'ownership', expected: value },
  };
}

function dkimRecord(domain: string, key: DkimKeyRow): DomainRecord {
  return {
    purpose: 'dkim',
    type: 'TXT',
    name: dkimRecordName(key.selector, domain),
    value: dkimRecordValue(key.public_key),
    // A retiring key's record is no longer needed; the others are.
    requirement: key.state === 'retiring' ? 'recommended' : 'required',
    status: key.status,
    verifiedAt: key.verified_at,
    lastCheckedAt: key.last_checked_at,
    lastCheckError: key.last_check_error,
    selector: key.selector,
    keyState: key.state,
    removeAfter: key.retiring_since ? new Date(key.retiring_since.getTime() + RETIRING_KEY_DAYS * DAY_MS) : null,
    ref: { kind: 'dkim', keyId: key.id, publicKey: key.public_key, state: key.state },
  };
}

/**
 * The domain's DKIM state, the one live sends depend on: `verified` when its active key's record verified at the last
 * check; `failed` when the last check of the key that counts (the active one, else the pending one) failed; else
 * `pending`.
 */
export function dkimStatus(keys: DkimKeyRow[]): RecordStatus {
  const active = keys.find((k) => k.state === 'active');
  if (active?.status === 'verified') return 'verified';
  const counting = active ?? keys.find((k) => k.state === 'pending');
  return counting?.status === 'failed' ? 'failed' : 'pending';
}
