import type { Knex } from '../../db/knex';
import { raiseInboxItem } from '../../inbox/service';
import { missingScopes, parseScope, REQUESTED_SCOPES } from '../oauth/scopes';
import { failureCode } from './failureCode';
import * as store from './store';
import type { PageRequest } from './store';

export const RECONNECT_SUGGESTED_KIND = 'commerce_reconnect_suggested';
export const reconnectSuggestedDedupKey = (connectionId: string) => `commerce:reconnect-suggested:${connectionId}`;

export interface DriftedConnection {
  connectionId: string;
  accountId: string;
  shopDomain: string;
  missing: string[];
  inboxItemCreated: boolean;
}

export interface ScopeDriftPageResult {
  checked: number;
  drifted: DriftedConnection[];
  failed: Array<{ connectionId: string; accountId: string; code: string }>;
  next: string | null;
}

/**
 * One page of the scope-drift sweep: each connected shop's granted scope (the comma list the platform answered at
 * install) against the nine requested scopes (doc3), with the platform's rule that `write_x` grants `read_x`. A shop
 * missing any gets an inbox item `commerce_reconnect_suggested` naming them — one open item per connection —
 * because only a new OAuth grant (connect again) adds scopes.
 */
export async function checkScopeDriftPage(db: Knex, page: PageRequest): Promise<ScopeDriftPageResult> {
  const rows = await store.activeConnectionScopesPage(db, page);
  const result: ScopeDriftPageResult = {
    checked: rows.length,
    drifted: [],
    failed: [],
    next: rows.length === page.limit ? rows[rows.length - 1].id : null,
  };
  for (const row of rows) {
    const missing = missingScopes(row.scope);
    if (missing.length === 0) continue;
    try {
      const { created } = await raiseInboxItem(db, row.account_id, {
        kind: RECONNECT_SUGGESTED_KIND,
        urgency: 'normal',
        dedupKey: reconnectSuggestedDedupKey(row.id),
        title: `Reconnect ${row.shop_domain}: ${missing.length} permission${missing.length === 1 ? '' : 's'} missing`,
        body: {
          connection_id: row.id,
          shop_domain: row.shop_domain,
          granted: parseScope(row.scope),
          required: [...REQUESTED_SCOPES],
          missing,
          hint: 'Connect the shop again (POST /api/commerce/connect) and approve every requested permission.',
        },
      });
      result.drifted.push({
        connectionId: row.id,
        accountId: row.account_id,
        shopDomain: row.shop_domain,
        missing,
        inboxItemCreated: created,
      });
    } catch (err) {
      result.failed.push({ connectionId: row.id, accountId: row.account_id, code: failureCode(err) });
    }
  }
  return result;
}
