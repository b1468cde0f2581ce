import type { PagedSweep } from './sweep';
import { reportConnection, type ConnectionCheckSummary, type ReportedConnection } from './sweepBudget';

/** A connection a checking activity flagged (and raised a deduplicated inbox item for). */
interface FlaggedConnection {
  connectionId: string;
  accountId: string;
  shopDomain: string;
  inboxItemCreated: boolean;
}

/** A page of a checking activity: how many connections it checked, those it flagged under `Key`, those it could not check. */
export type CheckPage<Key extends string, Flagged extends FlaggedConnection> = {
  checked: number;
  failed: Array<{ connectionId: string; accountId: string; code: string }>;
  next: string | null;
} & Record<Key, Flagged[]>;

/** The summary: exact counts (flagged ones under `Key`), the first connections named. */
export type CheckSummary<Key extends string, Status extends string, Extra> = ConnectionCheckSummary<
  (ReportedConnection<Status> & Extra) | ReportedConnection<'failed'>
> &
  Record<Key, number>;

/**
 * A sweep whose page activity checks the connections itself (one activity call a page, no continue-as-new): the
 * flagged ones are counted under `key` and named with `status` (and what `extra` adds), the failed ones with their code.
 */
export function connectionCheckSweep<
  Key extends string,
  Status extends string,
  Flagged extends FlaggedConnection,
  Extra extends object,
>(check: {
  key: Key;
  status: Status;
  page(after: string | null, limit: number): Promise<CheckPage<Key, Flagged>>;
  extra(flagged: Flagged): Extra;
}): PagedSweep<CheckSummary<Key, Status, Extra>, CheckPage<Key, Flagged>> {
  const { key, status } = check;
  return {
    phase: 'checking',
    fresh: () =>
      ({
        partial: false,
        checked: 0,
        [key]: 0,
        inbox_items_created: 0,
        failed: 0,
        connections: [],
        connections_truncated: false,
      }) as CheckSummary<Key, Status, Extra>,
    page: check.page,
    fold(summary, page, progress) {
      summary.checked += page.checked;
      for (const flagged of page[key]) {
        summary[key]++;
        if (flagged.inboxItemCreated) summary.inbox_items_created++;
        reportConnection(summary.connections, {
          connection_id: flagged.connectionId,
          account_id: flagged.accountId,
          shop_domain: flagged.shopDomain,
          status,
          ...check.extra(flagged),
          inbox_item_created: flagged.inboxItemCreated,
        });
      }
      for (const f of page.failed) {
        summary.failed++;
        reportConnection(summary.connections, { connection_id: f.connectionId, account_id: f.accountId, status: 'failed', code: f.code });
      }
      summary.connections_truncated = summary.connections.length < summary[key] + summary.failed;
      progress.advance(page.checked);
    },
  };
}
