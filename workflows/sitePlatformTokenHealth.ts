import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { reportConnection } from './sweepBudget';
import { configuredConnections, endUnconfigured, PAGE_ACTIVITY, ROW_ACTIVITY_RETRY, runSweep } from './sweep';
import {
  DEFAULT_DISCONNECT_CAP,
  MAX_DISCONNECT_CAP,
  type TokenCheckResult,
  type TokenHealthEntry,
  type TokenHealthInput,
  type TokenHealthSummary,
  type TokenPage,
} from './sitePlatformTokenHealth.contract';
import type { ConnectionRef } from './sitePlatformSweeps.contract';

const { listSitePlatformTokenHealthPage } = proxyActivities<Activities>(PAGE_ACTIVITY);
const { checkSitePlatformToken } = proxyActivities<Activities>({
  // One introspection (bounded by SITE_PLATFORM_TIMEOUT_MS and a 5 s Retry-After wait) and, on a disconnect, the fallback of its projects.
  startToCloseTimeout: '3 minutes',
  retry: ROW_ACTIVITY_RETRY,
});

const capOf = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0
    ? Math.min(Math.floor(value), MAX_DISCONNECT_CAP)
    : DEFAULT_DISCONNECT_CAP;

/**
 * The `site-platform-token-health` sweep (every 6 hours at minute 20, UTC): introspects every live connection's token,
 * one activity per connection. Tokens under the previous key are re-wrapped; a success resets the rejection count; a
 * connection the platform rejected on 2 checks in a row at least an hour apart is disconnected (projects fall back to
 * the native CMS, inbox item with their ids), at most `disconnectCap` per run — the rest are reported `disconnect_cap`.
 */
export async function sitePlatformTokenHealth(input: TokenHealthInput = {}): Promise<TokenHealthSummary> {
  const cap = capOf(input.disconnectCap);
  return runSweep<TokenHealthSummary, TokenPage, ConnectionRef>(input, {
    phase: 'introspecting',
    fresh: () => ({
      partial: false,
      configured: true,
      disconnect_cap: cap,
      checked: 0,
      healthy: 0,
      rejected: 0,
      unknown: 0,
      disconnected: 0,
      capped: 0,
      rewrapped: 0,
      failed: 0,
      skipped: 0,
      inbox_items_created: 0,
      connections: [],
      connections_truncated: false,
    }),
    page: (after, limit) => listSitePlatformTokenHealthPage({ after, limit, ...(input.accountId ? { accountId: input.accountId } : {}) }),
    fold: endUnconfigured,
    each: {
      items: configuredConnections,
      async visit(summary, ref) {
        const result = await checkOne(ref, summary.disconnected < cap);
        summary.checked++;
        if (result.rewrapped) summary.rewrapped++;
        if (result.inboxItemCreated) summary.inbox_items_created++;
        if (result.status === 'healthy') summary.healthy++;
        else if (result.status === 'rejected') summary.rejected++;
        else if (result.status === 'unknown') summary.unknown++;
        else if (result.status === 'disconnected') summary.disconnected++;
        else if (result.status === 'disconnect_cap') summary.capped++;
        else if (result.status === 'failed') summary.failed++;
        else summary.skipped++;
        if (result.status !== 'healthy') reportConnection(summary.connections, entryOf(ref, result));
        // Every connection not found healthy is reported.
        summary.connections_truncated = summary.connections.length < summary.checked - summary.healthy;
      },
    },
    resume: { done: (summary) => summary.checked },
  });
}

function entryOf(ref: ConnectionRef, result: TokenCheckResult): TokenHealthEntry {
  const entry: TokenHealthEntry = { connection_id: ref.connectionId, account_id: ref.accountId, status: result.status };
  if (result.rejections !== undefined) entry.rejections = result.rejections;
  if (result.rewrapped) entry.rewrapped = true;
  if (result.revertedProjectIds) entry.reverted_project_ids = result.revertedProjectIds;
  if (result.inboxItemCreated !== undefined) entry.inbox_item_created = result.inboxItemCreated;
  if (result.code) entry.code = result.code;
  return entry;
}

async function checkOne(ref: ConnectionRef, mayDisconnect: boolean): Promise<TokenCheckResult> {
  try {
    return await checkSitePlatformToken({ ...ref, mayDisconnect });
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    // Retries are spent (the database): reported, and the sweep goes on; the next run checks it again.
    return { status: 'failed', rewrapped: false, code: 'token_check_failed' };
  }
}
