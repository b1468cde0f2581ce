import type { Knex } from '../../db/knex';
import { attributedDealsByCurrency, firstTouchContacts, type PageScope } from './attributionStore';
import type { LedgerRange } from './ledgerStore';
import { normalizePath } from './paths';

export const UTM_KEYS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
export type Utm = Partial<Record<(typeof UTM_KEYS)[number], string>>;

export interface AttributedContact {
  contact_id: string;
  /** The first-touch ledger row. */
  form_submission_id: string;
  first_touch_at: Date;
  /** The UTM fields the first-touch submission carried (empty when none). */
  utm: Utm;
}

export interface AttributedContacts {
  count: number;
  /** Newest first touch first, at most the limit asked for. */
  contacts: AttributedContact[];
}

export interface AttributedDeals {
  count: number;
  won: number;
  /** Won deals' amounts per currency, in minor units, one entry per currency (sorted), never summed across them. */
  revenue: Array<{ currency: string; amount_minor: number }>;
}

export const DEFAULT_CONTACTS_LIMIT = 50;
export const MAX_CONTACTS_LIMIT = 500;

const squash = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');

/** `utm_source`, `UTM Source`, `utmSource` … → `{ source }`; blank and non-text values are left out. */
export function utmOf(fields: Record<string, unknown>): Utm {
  const utm: Utm = {};
  for (const [key, value] of Object.entries(fields)) {
    const name = UTM_KEYS.find((k) => squash(key) === `utm${k}`);
    if (name && typeof value === 'string' && value.trim() !== '' && utm[name] === undefined) utm[name] = value.trim().slice(0, 200);
  }
  return utm;
}

const scopeOf = (projectId: string, path: string, range: LedgerRange): PageScope | undefined => {
  const normalized = normalizePath(path);
  return normalized === null ? undefined : { projectId, path: normalized, range };
};

/** Contacts whose first touch is this page (project, normalised path) within the range. */
export async function attributedContacts(
  db: Knex,
  accountId: string,
  projectId: string,
  path: string,
  range: LedgerRange = {},
  limit = DEFAULT_CONTACTS_LIMIT,
): Promise<AttributedContacts> {
  const scope = scopeOf(projectId, path, range);
  if (!scope) return { count: 0, contacts: [] };
  const rows = await firstTouchContacts(db, accountId, scope, Math.min(Math.max(1, limit), MAX_CONTACTS_LIMIT));
  return {
    count: rows[0]?.total ?? 0,
    contacts: rows.map((r) => ({
      contact_id: r.contact_id,
      form_submission_id: r.form_submission_id,
      first_touch_at: r.submitted_at,
      utm: utmOf(r.fields),
    })),
  };
}

/** Deals of the contacts attributed to this page, created at or after their first touch. */
export async function attributedDeals(
  db: Knex,
  accountId: string,
  projectId: string,
  path: string,
  range: LedgerRange = {},
): Promise<AttributedDeals> {
  const scope = scopeOf(projectId, path, range);
  const rows = scope ? await attributedDealsByCurrency(db, accountId, scope) : [];
  return {
    count: rows.reduce((n, r) => n + r.deals, 0),
    won: rows.reduce((n, r) => n + r.won, 0),
    revenue: rows.filter((r) => r.won > 0).map((r) => ({ currency: r.currency, amount_minor: r.won_minor })),
  };
}
