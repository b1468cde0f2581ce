import { createHmac, randomBytes } from 'node:crypto';
import { Pool } from 'undici';
import { createAccount } from '../../src/auth/service';
import { urlTokenHash, urlTokenOf } from '../../src/sitePlatform/webhooks/urlToken';
import type { BenchEnv } from './env';
import { BENCH_HASH_KEY } from './servers';

/** The site-platform webhook intake as the platform drives it (the shapes of bench/scenarios/siteWebhook.ts), for many sites. */

export const TRIGGER = 'collection_item_changed';

export interface SiteIntakeSeed {
  accountId: string;
  connectionId: string;
  siteIds: string[];
  secret: string;
  path: string;
}

/** An account with one OAuth connection (service-wide client) reaching `sites` sites, its receiver URL registered. */
export async function seedSiteIntake(env: BenchEnv, sites: number): Promise<SiteIntakeSeed> {
  const tag = randomBytes(4).toString('hex');
  const { account } = await createAccount(env.db, BENCH_HASH_KEY, {
    name: 'Bench site intake',
    ownerEmail: `owner-${tag}@example.com`,
    ownerName: 'Bench',
  });
  const [connection] = await env
    .db('site_platform_connections')
    .insert({
      account_id: account.id,
      access_token_enc: 'v1:unused',
      auth_kind: 'oauth',
      purpose: 'account_default',
      installed_at: new Date(),
    })
    .returning('id');
  const urlToken = urlTokenOf(BENCH_HASH_KEY, connection.id);
  await env
    .db('site_platform_connections')
    .where({ id: connection.id })
    .update({ webhook_url_token_hash: urlTokenHash(urlToken) });
  const siteIds = Array.from({ length: sites }, (_, i) => `site_${tag}_${i}`);
  const ref = { account_id: account.id, connection_id: connection.id };
  await env.db('site_platform_sites').insert(siteIds.map((site_id) => ({ ...ref, site_id, display_name: site_id })));
  await env.db('site_platform_connection_sites').insert(siteIds.map((site_id) => ({ ...ref, site_id })));
  await env.db('site_platform_webhook_subscriptions').insert(
    siteIds.map((site_id, i) => ({
      ...ref,
      site_id,
      webhook_id: `wh_${tag}_${i}`,
      trigger_type: TRIGGER,
      endpoint_url: 'http://127.0.0.1/hook',
    })),
  );
  return {
    accountId: account.id,
    connectionId: connection.id,
    siteIds,
    secret: `csec_${randomBytes(16).toString('hex')}`,
    path: `/api/webhooks/site-platform/${connection.id}/${urlToken}`,
  };
}

/** A distinct collection_item_changed body of one site (the event id is the hash of the body, so a resend is a duplicate). */
export function itemChangedBody(siteId: string, id: string): Buffer {
  return Buffer.from(
    JSON.stringify({
      triggerType: TRIGGER,
      payload: {
        id: `${id}_${randomBytes(6).toString('hex')}`,
        siteId,
        workspaceId: 'ws_bench',
        collectionId: 'col_bench',
        cmsLocaleId: 'loc_bench',
        lastPublished: null,
        lastUpdated: new Date().toISOString(),
        createdOn: '2026-11-01T10:00:00.000Z',
        isArchived: false,
        isDraft: false,
        fieldData: { name: `Article ${id} — Crème brûlée`, slug: `article-${id}`, summary: 'x'.repeat(400) },
      },
    }),
  );
}

export type Answer = 'new' | 'replay';

export interface IntakeClient {
  send(body: Buffer): Promise<Answer>;
  close(): Promise<void>;
}

/** Posts signed deliveries (signed at send time, as the platform does) to one receiver; a non-200 answer throws. */
export function intakeClient(baseUrl: string, seed: SiteIntakeSeed, connections: number): IntakeClient {
  const pool = new Pool(baseUrl, { connections });
  return {
    async send(body) {
      const timestamp = String(Date.now());
      const signature = createHmac('sha256', seed.secret).update(`${timestamp}:`).update(body).digest('hex');
      const res = await pool.request({
        method: 'POST',
        path: seed.path,
        headers: { 'content-type': 'application/json', 'x-webflow-timestamp': timestamp, 'x-webflow-signature': signature },
        body,
      });
      const text = await res.body.text();
      const answer = res.statusCode === 200 ? (JSON.parse(text) as { received?: boolean; replay?: boolean }) : undefined;
      if (answer?.received !== true) throw new Error(`status ${res.statusCode}: ${text}`);
      return answer.replay ? 'replay' : 'new';
    },
    close: () => pool.close(),
  };
}

export interface SiteCounts {
  recorded: number;
  fannedOut: number;
  /** received_at → fanned_out_at of the fanned-out rows, ms. */
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

export async function siteCounts(env: BenchEnv, accountId: string, siteIds: string[]): Promise<SiteCounts> {
  const { rows } = await env.db.raw(
    `select count(*)::int as recorded, count(fanned_out_at)::int as fanned,
            percentile_cont(array[0.5, 0.95, 0.99]) within group (order by extract(epoch from fanned_out_at - received_at) * 1000)
              filter (where fanned_out_at is not null) as pct
       from site_platform_inbound_events where account_id = ? and site_id = any(?) and verified`,
    [accountId, siteIds],
  );
  const pct: number[] = rows[0].pct ?? [NaN, NaN, NaN];
  return { recorded: rows[0].recorded, fannedOut: rows[0].fanned, p50Ms: pct[0], p95Ms: pct[1], p99Ms: pct[2] };
}

/** Polls until every recorded event of the sites is fanned out, or none was for `stallMs`. */
export async function drainSites(env: BenchEnv, accountId: string, siteIds: string[], stallMs = 30_000): Promise<SiteCounts> {
  let last = -1;
  let progressAt = performance.now();
  for (;;) {
    const c = await siteCounts(env, accountId, siteIds);
    if (c.fannedOut !== last) progressAt = performance.now();
    last = c.fannedOut;
    if (c.fannedOut >= c.recorded || performance.now() - progressAt > stallMs) return c;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
