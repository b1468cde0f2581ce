import { randomUUID } from 'node:crypto';
import { Pool } from 'undici';
import { createAccount } from '../../src/auth/service';
import type { BenchEnv } from '../lib/env';
import { pool, sampleLoad, type Samples } from '../lib/load';
import type { ScenarioResult } from '../lib/report';
import { BENCH_HASH_KEY, startServers } from '../lib/servers';

const ITEMS = 50_000;
const CONCURRENCY = 16;
const ROUNDS = 3;
const ROUND_MS = 5_000;
const STATUSES = ['draft', 'review', 'scheduled', 'published', 'archived'];
const TYPES = [
  'blog_post',
  'case_study',
  'landing_page',
  'newsletter',
  'guide',
  'webinar',
  'ebook',
  'faq',
  'press_release',
  'social_thread',
];
const STAGES = ['Awareness', 'Consideration', 'Decision', 'Retention', 'Advocacy'];
const AVATARS = 20;

/** 50,000 items over 5 statuses, 10 types, 20 avatars and one 5-stage journey; updated over the last 100 days. */
async function seed(env: BenchEnv, accountId: string): Promise<string[]> {
  const avatars: string[] = Array.from({ length: AVATARS }, () => randomUUID());
  await env.db('customer_avatars').insert(avatars.map((id, i) => ({ id, account_id: accountId, name: `Persona ${i + 1}` })));
  const [journey] = await env
    .db('customer_journeys')
    .insert({ account_id: accountId, name: 'Buyer journey', stages: JSON.stringify(STAGES.map((name) => ({ name }))) })
    .returning('id');
  await env.db.raw(
    `insert into content_items (account_id, title, slug, status, content_type, avatar_id, journey_id, journey_stage, tags,
                                settings, updated_at, published_at)
     select ?, 'Item ' || g, 'item-' || g, (?::text[])[1 + g % 5], (?::text[])[1 + (g / 5) % 10],
            (?::uuid[])[1 + (g / 50) % ?], ?, (?::text[])[1 + (g / 7) % 5], array['t' || (g % 40)],
            jsonb_build_object('target_keyword', 'keyword ' || (g % 500)), now() - (g * 170 || ' seconds')::interval,
            case when g % 5 = 3 then now() - (g * 170 || ' seconds')::interval end
     from generate_series(1, ?) g`,
    [accountId, STATUSES, TYPES, avatars, AVATARS, journey.id, STAGES, ITEMS],
  );
  await env.db.raw('vacuum analyze content_items');
  return avatars;
}

/** Two filters per request, as the agent list is used: a status with a type, or an avatar with a journey stage. */
function paths(avatars: string[]): string[] {
  const pairs = [
    ...STATUSES.flatMap((s) => TYPES.slice(0, 4).map((t) => `status=${s}&content_type=${t}`)),
    ...avatars.slice(0, 10).map((a, i) => `avatar_id=${a}&journey_stage=${STAGES[i % STAGES.length].toLowerCase()}`),
  ];
  return pairs.map((q) => `/api/agent/marketing/content?${q}`);
}

async function round(baseUrl: string, token: string | undefined, requestPaths: string[]): Promise<Samples> {
  const client = new Pool(baseUrl, { connections: CONCURRENCY });
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  try {
    return await sampleLoad(
      async (i) => {
        const res = await client.request({ method: 'GET', path: requestPaths[Math.abs(i) % requestPaths.length], headers });
        await res.body.text();
        if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
      },
      { concurrency: CONCURRENCY, durationMs: ROUND_MS, warmupOperations: 100 },
    );
  } finally {
    await client.close();
  }
}

/**
 * The agent content list with two filters over 50,000 items vs bare Koa handlers: one running the same indexed
 * SELECT our list runs (page and total), and, for context, one running only the page SELECT (no total).
 */
export async function contentList(env: BenchEnv): Promise<ScenarioResult[]> {
  const { account, agentKey } = await createAccount(env.db, BENCH_HASH_KEY, {
    name: 'Bench content',
    ownerEmail: 'content@example.com',
    ownerName: 'Bench',
  });
  const ourPaths = paths(await seed(env, account.id));
  const servers = await startServers(env, 'content-list', account.id);
  const baselinePaths = (kind: string) => ourPaths.map((p) => p.replace('/api/agent/marketing/content', `/${kind}`));
  try {
    const ours: Samples[] = [];
    const same: Samples[] = [];
    const pageOnly: Samples[] = [];
    // Rounds alternate the sides, so a slow spell of the machine falls on all of them.
    for (let r = 0; r < ROUNDS; r++) {
      same.push(await round(servers.urls.baseline, undefined, baselinePaths('same')));
      pageOnly.push(await round(servers.urls.baseline, undefined, baselinePaths('page')));
      ours.push(await round(servers.urls.ours, agentKey, ourPaths));
    }
    const name = `content-list, agent list with two filters (${ITEMS.toLocaleString('en')} items, ${CONCURRENCY} connections, ${ROUNDS} alternating rounds of ${ROUND_MS / 1000} s per side)`;
    return [
      { name, ours: pool(ours), baseline: pool(same), baselineLabel: 'bare Koa, same SELECT (page + total)', goalRatio: 0.6 },
      { name: `${name}, context`, ours: pool(ours), baseline: pool(pageOnly), baselineLabel: 'bare Koa, page SELECT only (no total)' },
    ];
  } finally {
    servers.stop();
  }
}
