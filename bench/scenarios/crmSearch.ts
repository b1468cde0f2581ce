import { Pool } from 'undici';
import { createAccount } from '../../src/auth/service';
import { FAIR_BASELINE_PATH } from '../baselines/crmSearch';
import type { BenchEnv } from '../lib/env';
import { pool, sampleLoad, type Samples } from '../lib/load';
import type { ScenarioResult } from '../lib/report';
import { BENCH_HASH_KEY, startServers } from '../lib/servers';

const CONTACTS = 100_000;
const CONCURRENCY = 16;
const ROUNDS = 3;
const ROUND_MS = 5_000;
const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'to', 'ne', 'sa', 'vi', 'du', 'pe', 'ri', 'mo', 'la', 'zu', 'be', 'fi', 'go', 'ha', 'ji', 'ye'];
const FIRST = ['ada', 'grace', 'alan', 'linus', 'barbara', 'edsger', 'margaret', 'ken', 'dennis', 'frances'];

/**
 * 100,000 contacts in one account: "<First> <Surname>", "<first>.<surname><n>@example.com", where the surname is one
 * of 8,000 made of three syllables (so a surname names ~12 contacts, like a real address book) and the first name
 * one of ten (so a first name matches 10% of the table).
 */
async function seed(env: BenchEnv, accountId: string): Promise<void> {
  await env.db.raw(
    `insert into crm_contacts (account_id, name, email, tags, created_at)
     select ?, initcap(f.first) || ' ' || initcap(s.surname), f.first || '.' || s.surname || g || '@example.com',
            case when g % 10 = 0 then array['vip'] else array['lead'] end, now() - (g || ' seconds')::interval
     from generate_series(1, ?) g
     cross join lateral (select (?::text[])[1 + g % 10] as first) f
     cross join lateral (select (?::text[])[1 + (g / 10) % 20] || (?::text[])[1 + (g / 200) % 20] || (?::text[])[1 + (g / 4000) % 20] || 'n' as surname) s`,
    [accountId, CONTACTS, FIRST, SYLLABLES, SYLLABLES, SYLLABLES],
  );
  await env.db.raw('vacuum analyze crm_contacts');
}

/** What people type to find someone: a surname, a full name, an email fragment — taken from rows that exist. */
async function selectiveTerms(env: BenchEnv, accountId: string): Promise<string[]> {
  const rows: Array<{ name: string; email: string }> = await env
    .db('crm_contacts')
    .where('account_id', accountId)
    .select('name', 'email')
    .orderByRaw('md5(id::text)')
    .limit(40);
  return rows.map((r, i) => [r.name.split(' ')[1], r.name, r.email.split('@')[0]][i % 3]);
}

const toPaths = (terms: string[]) => terms.map((t) => `/api/crm/contacts?search=${encodeURIComponent(t)}`);

/** One round of load on one server; the pool of HTTP connections lives for the round. */
async function round(baseUrl: string, token: string | undefined, paths: string[]): Promise<Samples> {
  const client = new Pool(baseUrl, { connections: CONCURRENCY });
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  try {
    return await sampleLoad(
      async (i) => {
        const res = await client.request({ method: 'GET', path: paths[Math.abs(i) % paths.length], headers });
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
 * GET /api/crm/contacts?search=… over 100,000 contacts vs a bare Koa handler running the same page SELECT and the exact
 * total the spec requires (our store's one-statement page + count: the fair baseline), and for context vs the same
 * handler running the page SELECT alone (no count). Two term mixes: selective (what a search box mostly gets) and
 * broad (a first name: 10,000 matches to count). Rounds alternate page-only, fair, ours.
 */
export async function crmSearch(env: BenchEnv): Promise<ScenarioResult[]> {
  const { account, ownerToken } = await createAccount(env.db, BENCH_HASH_KEY, {
    name: 'Bench',
    ownerEmail: 'bench@example.com',
    ownerName: 'Bench',
  });
  await seed(env, account.id);
  const servers = await startServers(env, 'crm-search', account.id);
  const mixes = [
    {
      label: 'selective terms: a surname, full name or email fragment, ~12 matches each',
      paths: toPaths(await selectiveTerms(env, account.id)),
      goal: 0.6,
      fairGoal: undefined,
    },
    { label: 'broad terms: a first name, 10,000 matches each to count', paths: toPaths(FIRST), goal: undefined, fairGoal: 0.7 },
  ];
  try {
    const results: ScenarioResult[] = [];
    for (const mix of mixes) {
      // Rounds alternate baseline and ours, so a slow spell of the machine falls on both sides.
      const baselineRounds: Samples[] = [];
      const fairRounds: Samples[] = [];
      const ourRounds: Samples[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        baselineRounds.push(
          await round(
            servers.urls.baseline,
            undefined,
            mix.paths.map((p) => p.replace('/api/crm/contacts', '/')),
          ),
        );
        fairRounds.push(
          await round(
            servers.urls.baseline,
            undefined,
            mix.paths.map((p) => p.replace('/api/crm/contacts', FAIR_BASELINE_PATH)),
          ),
        );
        ourRounds.push(await round(servers.urls.ours, ownerToken, mix.paths));
      }
      const name = `crm-search, ${mix.label} (${CONTACTS.toLocaleString('en')} contacts, ${CONCURRENCY} connections, ${ROUNDS} alternating rounds of ${ROUND_MS / 1000} s per side)`;
      const ours = pool(ourRounds);
      results.push(
        {
          name: `${name}, vs page + exact total${mix.fairGoal === undefined ? ' (context)' : ''}`,
          ours,
          baseline: pool(fairRounds),
          baselineLabel: 'bare Koa handler, page SELECT + exact count',
          goalRatio: mix.fairGoal,
        },
        {
          name: `${name}, vs the page alone${mix.goal === undefined ? ' (context)' : ''}`,
          ours,
          baseline: pool(baselineRounds),
          baselineLabel: 'bare Koa handler, one indexed SELECT',
          goalRatio: mix.goal,
        },
      );
    }
    return results;
  } finally {
    servers.stop();
  }
}
