import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * DNS names are at most 253 characters, and the longest record name, the DKIM key's `wy<n>._domainkey.<domain>`,
 * adds up to 20 (selectors up to `wy999999`).
 */
export const MAX_NAME = 233;
export const MAX_LABEL = 63;

const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/** Why `name` (already lowercased) is not a sender domain, or null when it is one. */
export function domainNameProblem(name: string): string | null {
  if (name.length === 0) return 'must not be empty';
  if (name.length > MAX_NAME)
    return `must be at most ${MAX_NAME} characters (the record wy<n>._domainkey.<domain> must fit the DNS limit of 253)`;
  if (isIP(name) || isIP(name.replace(/^\[|\]$/g, ''))) return 'must be a domain name, not an IP address';
  if (name.endsWith('.')) return 'must not end with a dot';
  if (!/^[\x21-\x7e]+$/.test(name)) return 'must be ASCII without spaces (send an internationalised name in its xn-- form)';
  const labels = name.split('.');
  if (labels.length < 2) return 'must have at least two labels, e.g. example.com';
  for (const label of labels) {
    if (label.length === 0) return 'must not have empty labels (two dots in a row or a leading dot)';
    if (label.length > MAX_LABEL) return `labels must be at most ${MAX_LABEL} characters`;
    if (!LABEL.test(label)) return 'labels hold letters a-z, digits and inner hyphens only';
  }
  if (/^\d+$/.test(labels[labels.length - 1])) return 'the top-level label must not be all digits';
  return null;
}

/** A sender domain as a body field: trimmed, lowercased, then checked (`domainNameProblem`). */
export const domainName = () =>
  z
    .string()
    .trim()
    .toLowerCase()
    .superRefine((name, ctx) => {
      const problem = domainNameProblem(name);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

/** A domain as a send names it (`a@Example.COM`), in the stored form (a trailing dot names the same domain). */
export const normaliseDomain = (domain: string) => domain.trim().toLowerCase().replace(/\.$/, '');
