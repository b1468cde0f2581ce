import type { Knex } from '../../db/knex';
import { COUNTED_ROW_SQL, RESOLVED_CONTACT_SQL, type LedgerRange } from './ledgerStore';

// First-touch attribution over the forms ledger and the CRM (the model: ATTRIBUTION_MODEL_DOC in docs.ts).
// Every query filters on the account, and deals join on the account too.

export interface PageScope {
  projectId: string;
  path: string;
  range: LedgerRange;
}

export interface FirstTouchRow {
  contact_id: string;
  form_submission_id: string;
  submitted_at: Date;
  fields: Record<string, unknown>;
  total: number;
}

export interface DealsByCurrencyRow {
  currency: string;
  deals: number;
  won: number;
  won_minor: number;
}

/**
 * `attributed`: the contacts whose first touch is the scope's page within its range, with that touch. A contact's
 * first touch is its earliest counted ledger row anywhere in the account (any project, any page, a row of no
 * project too), so a contact first seen elsewhere is never attributed to this page.
 */
const ATTRIBUTED_CTE = `
  touches as (
    select s.id, s.project_id, s.page_path, s.submitted_at, s.fields, ${RESOLVED_CONTACT_SQL} as contact_id
      from form_submissions s
     where s.account_id = :account and ${COUNTED_ROW_SQL} and (s.contact_id is not null or s.email is not null)
  ),
  first_touches as (
    select distinct on (contact_id) contact_id, id, project_id, page_path, submitted_at, fields
      from touches where contact_id is not null
     order by contact_id, submitted_at, id
  ),
  attributed as (
    select contact_id, id as form_submission_id, submitted_at, fields
      from first_touches
     where project_id = :project and page_path = :path
       and (:from::timestamptz is null or submitted_at >= :from::timestamptz)
       and (:to::timestamptz is null or submitted_at < :to::timestamptz)
  )`;

const bindings = (accountId: string, scope: PageScope) => ({
  account: accountId,
  project: scope.projectId,
  path: scope.path,
  from: scope.range.from?.toISOString() ?? null,
  to: scope.range.to?.toISOString() ?? null,
});

/** The attributed contacts, newest first touch first, at most `limit`; each row carries the full count as `total`. */
export async function firstTouchContacts(db: Knex, accountId: string, scope: PageScope, limit: number): Promise<FirstTouchRow[]> {
  const result = await db.raw(
    `with ${ATTRIBUTED_CTE}
     select contact_id, form_submission_id, submitted_at, fields, (count(*) over ())::int as total
       from attributed
      order by submitted_at desc, contact_id
      limit :limit`,
    { ...bindings(accountId, scope), limit },
  );
  return result.rows as FirstTouchRow[];
}

/**
 * Deals of the attributed contacts created at or after the contact's first touch, per currency: how many, how many
 * won (`won_at` set: in a won stage) and the won amount in minor units. Never summed across currencies.
 */
export async function attributedDealsByCurrency(db: Knex, accountId: string, scope: PageScope): Promise<DealsByCurrencyRow[]> {
  const result = await db.raw(
    `with ${ATTRIBUTED_CTE}
     select d.currency, count(*)::int as deals, (count(*) filter (where d.won_at is not null))::int as won,
            coalesce(sum(d.amount) filter (where d.won_at is not null), 0)::bigint as won_minor
       from crm_deals d
       join attributed a on a.contact_id = d.contact_id
      where d.account_id = :account and d.created_at >= a.submitted_at
      group by d.currency
      order by d.currency`,
    bindings(accountId, scope),
  );
  return result.rows as DealsByCurrencyRow[];
}

export interface AssetAttributionRow {
  /** `page` rows: the first touch's project and page; `campaign` rows: its UTM campaign. */
  key_kind: 'page' | 'campaign';
  project_id: string | null;
  page_path: string | null;
  campaign: string | null;
  contacts: number;
  /** Null on a row of an asset whose contacts have no deal. */
  currency: string | null;
  deals: number;
  won: number;
  won_minor: number;
}

/**
 * Attribution of every page and every UTM campaign of the account at once (the campaign ROI report): contacts whose
 * first touch falls in the range, and their deals (created at or after the touch) per currency. One statement.
 */
export async function attributionByAsset(db: Knex, accountId: string, range: LedgerRange): Promise<AssetAttributionRow[]> {
  const result = await db.raw(
    `with touches as (
       select s.id, s.project_id, s.page_path, s.submitted_at, ${RESOLVED_CONTACT_SQL} as contact_id,
              (select v.value from jsonb_each_text(s.fields) v
                where lower(regexp_replace(v.key, '[^a-zA-Z]', '', 'g')) = 'utmcampaign' and v.value <> '' limit 1) as campaign
         from form_submissions s
        where s.account_id = :account and ${COUNTED_ROW_SQL} and (s.contact_id is not null or s.email is not null)
     ),
     first_touches as (
       select distinct on (contact_id) contact_id, project_id, page_path, campaign, submitted_at
         from touches where contact_id is not null
        order by contact_id, submitted_at, id
     ),
     in_range as (
       select * from first_touches
        where (:from::timestamptz is null or submitted_at >= :from::timestamptz)
          and (:to::timestamptz is null or submitted_at < :to::timestamptz)
     ),
     keyed as (
       select 'page' as key_kind, project_id, page_path, null::text as campaign, contact_id, submitted_at from in_range where project_id is not null
       union all
       select 'campaign', null, null, campaign, contact_id, submitted_at from in_range where campaign is not null
     ),
     contacts as (
       select key_kind, project_id, page_path, campaign, count(*)::int as contacts
         from keyed group by key_kind, project_id, page_path, campaign
     ),
     deals as (
       select k.key_kind, k.project_id, k.page_path, k.campaign, d.currency, count(*)::int as deals,
              (count(*) filter (where d.won_at is not null))::int as won,
              coalesce(sum(d.amount) filter (where d.won_at is not null), 0)::bigint as won_minor
         from keyed k
         join crm_deals d on d.account_id = :account and d.contact_id = k.contact_id and d.created_at >= k.submitted_at
        group by k.key_kind, k.project_id, k.page_path, k.campaign, d.currency
     )
     select c.key_kind, c.project_id, c.page_path, c.campaign, c.contacts, d.currency,
            coalesce(d.deals, 0)::int as deals, coalesce(d.won, 0)::int as won, coalesce(d.won_minor, 0)::bigint as won_minor
       from contacts c
       left join deals d on d.key_kind = c.key_kind and d.project_id is not distinct from c.project_id
                        and d.page_path is not distinct from c.page_path and d.campaign is not distinct from c.campaign
      order by c.key_kind, c.project_id, c.page_path, c.campaign, d.currency`,
    { account: accountId, from: range.from?.toISOString() ?? null, to: range.to?.toISOString() ?? null },
  );
  return (result.rows as AssetAttributionRow[]).map((r) => ({ ...r, won_minor: Number(r.won_minor) }));
}
