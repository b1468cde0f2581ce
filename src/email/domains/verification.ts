import { randomBytes } from 'node:crypto';

/** The TXT record a domain owner publishes: `_workyard.<domain>` holding `workyard-verification=<token>`. */
export const recordName = (domain: string) => `_workyard.${domain}`;
export const recordValue = (token: string) => `workyard-verification=${token}`;

/** 24 random bytes: 32 base64url characters, unguessable, safe in any DNS provider's TXT field. */
export const newVerificationToken = () => randomBytes(24).toString('base64url');

export const RECORD_NOT_FOUND = 'record not found';
export const VALUE_DIFFERS = 'value differs';

export type CheckResult = { verified: true } | { verified: false; reason: typeof RECORD_NOT_FOUND | typeof VALUE_DIFFERS };

/**
 * Verified when any TXT record at the name equals the expected value (outer spaces ignored; a long value split in
 * several strings is already joined). Other TXT records may live beside it.
 */
export function checkRecords(records: string[], expected: string): CheckResult {
  if (records.length === 0) return { verified: false, reason: RECORD_NOT_FOUND };
  return records.some((r) => r.trim() === expected) ? { verified: true } : { verified: false, reason: VALUE_DIFFERS };
}
