import type { EmailKeyHandle, EmailScope } from '../../auth/types';
import type { UsageRecorder } from '../usage/recorder';
import { IpAllowlist } from '../../net/ipMatch';
import type { EmailKeyRow } from './store';
import type { EmailEnvironment } from './token';

/**
 * A key as this process knows it: the keyring's cache entry and, at the same time, the handle (`auth.key`) requests
 * hold. Updates change it in place, so a revocation reaches requests already in flight.
 */
export class LiveKey implements EmailKeyHandle {
  revoked = false;
  accountId!: string;
  environment!: EmailEnvironment;
  scopes!: EmailScope[];
  secretHash!: string;
  ratePerSecond!: number;
  dailyCap!: number | null;
  allowedDomains!: ReadonlySet<string> | null;
  allowedIps: IpAllowlist | null = null;
  /** Monotonic time (ms) until which the entry may be used without a database read. */
  freshUntil = 0;

  /** Where this key's usage is counted (the usage buffer of the app that loaded it). */
  constructor(
    readonly id: string,
    row: EmailKeyRow,
    readonly usage: UsageRecorder,
  ) {
    this.apply(row);
  }

  /** Takes the row's settings. A key never comes back from revocation. */
  apply(row: EmailKeyRow): void {
    this.accountId = row.account_id;
    this.environment = row.environment;
    this.scopes = row.scopes;
    this.secretHash = row.secret_hash;
    this.ratePerSecond = row.rate_per_second;
    this.dailyCap = row.daily_cap;
    this.allowedDomains = row.allowed_domains ? new Set(row.allowed_domains) : null;
    if (this.allowedIps?.entries.join(',') !== row.allowed_ips?.join(',')) {
      this.allowedIps = row.allowed_ips ? new IpAllowlist(row.allowed_ips) : null;
    }
    if (row.revoked_at) this.revoked = true;
  }
}
