/**
 * The ledger's reading of a submission's fields: who sent it (email, name), and whether it is spam. Pure functions,
 * so the rules are tested on their own; the duplicate rule needs the ledger and lives in the store's insert.
 */

/**
 * Honeypot fields: inputs a site hides from people (CSS or `aria-hidden`) and that only bots fill in. The platform's own
 * spam filter passes such a submission through, because to it the field is an ordinary input. A submission whose
 * honeypot field holds anything but blanks is spam. Matched on the field name, case and punctuation ignored.
 */
export const HONEYPOT_FIELDS = ['_gotcha', 'honeypot', 'bot-field', 'hp-field', 'website-hp'] as const;

/** An earlier non-deleted, non-spam row with the same email and form label within this window makes a row a duplicate. */
export const DUPLICATE_WINDOW_HOURS = 24;

const squash = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');
const HONEYPOTS = new Set(HONEYPOT_FIELDS.map(squash));
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;

const filled = (value: unknown): boolean =>
  typeof value === 'string'
    ? value.trim() !== ''
    : Array.isArray(value)
      ? value.some(filled)
      : value !== null && value !== undefined && value !== false;

export function isSpam(fields: Record<string, unknown>): boolean {
  return Object.entries(fields).some(([key, value]) => HONEYPOTS.has(squash(key)) && filled(value));
}

const asText = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/**
 * The sender's email: the first field whose name mentions "email" and whose value is an address; failing that, the
 * first field of any name whose value is an address. Undefined when none is.
 */
export function emailOf(fields: Record<string, unknown>): string | undefined {
  const entries = Object.entries(fields);
  const isEmail = (v: unknown) => {
    const t = asText(v);
    return t !== undefined && t.length <= 254 && EMAIL.test(t) ? t : undefined;
  };
  for (const [key, value] of entries) if (squash(key).includes('email') && isEmail(value)) return isEmail(value);
  for (const [, value] of entries) if (isEmail(value)) return isEmail(value);
  return undefined;
}

const NAME_KEYS = new Set(['name', 'fullname', 'yourname', 'contactname']);
const FIRST_KEYS = new Set(['firstname', 'givenname', 'first']);
const LAST_KEYS = new Set(['lastname', 'surname', 'familyname', 'last']);

/** The sender's name: a "Name"-like field, else first and last name fields joined; at most 200 characters. */
export function nameOf(fields: Record<string, unknown>): string | undefined {
  const pick = (keys: Set<string>) => {
    for (const [key, value] of Object.entries(fields)) if (keys.has(squash(key)) && asText(value)) return asText(value);
    return undefined;
  };
  const name = pick(NAME_KEYS) ?? ([pick(FIRST_KEYS), pick(LAST_KEYS)].filter(Boolean).join(' ') || undefined);
  return name?.slice(0, 200);
}
