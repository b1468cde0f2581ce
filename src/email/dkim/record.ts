/** Selectors are `wy1`, `wy2`, …: one number per key of the domain, never reused, so a new key never meets an old record. */
export const selectorFor = (seq: number) => `wy${seq}`;

/** Where a key's public half is published (RFC 6376 §3.6.2.1). */
export const dkimRecordName = (selector: string, domain: string) => `${selector}._domainkey.${domain}`;

/** The TXT value of a key's record (RFC 6376 §3.6.1). About 410 characters: DNS carries it as two strings of one record. */
export const dkimRecordValue = (publicKey: string) => `v=DKIM1; k=rsa; p=${publicKey}`;

/**
 * The tags of a DKIM key record (`v=DKIM1; k=rsa; p=…`), names lower-cased and whitespace removed from values
 * (RFC 6376 §3.2: folding whitespace may appear anywhere in a base64 value).
 */
export function parseDkimRecord(value: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of value.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    tags.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).replace(/\s+/g, ''));
  }
  return tags;
}
