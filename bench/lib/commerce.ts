import { randomBytes } from 'node:crypto';
import { createAccount } from '../../src/auth/service';
import type { CommerceSimulator, SimOrder } from '../../src/sandbox/commerce';
import type { BenchEnv } from './env';
import { BENCH_HASH_KEY } from './servers';

export interface BenchCommerceAccount {
  accountId: string;
  clientId: string;
  clientSecret: string;
}

/** An account with its commerce app registration (client id and plaintext secret, as PUT /api/commerce/app stores them). */
export async function newCommerceAccount(env: BenchEnv, name: string): Promise<BenchCommerceAccount> {
  const tag = randomBytes(4).toString('hex');
  const { account } = await createAccount(env.db, BENCH_HASH_KEY, { name, ownerEmail: `owner-${tag}@example.com`, ownerName: 'Bench' });
  const app = { clientId: `cid_${tag}`, clientSecret: `csec_${randomBytes(16).toString('hex')}` };
  await env
    .db('app_registrations')
    .insert({ account_id: account.id, provider: 'commerce', client_id: app.clientId, client_secret: app.clientSecret });
  return { accountId: account.id, ...app };
}

/**
 * `count` orders on a simulator shop, shaped as the platform sends them (line items, customers, totals), from
 * `count / 4` customers — about four orders each, so the CRM bridge both creates contacts and adds to their
 * rollups — and one guest order (no email) in ten.
 */
export function addBenchOrders(sim: CommerceSimulator, domain: string, count: number): SimOrder[] {
  const customers = Math.max(1, Math.ceil(count / 4));
  return sim.addOrders(
    domain,
    Array.from({ length: count }, (_, i) => ({
      email: i % 10 === 9 ? null : `buyer-${i % customers}@${domain.replace(/\.commerce\.test$/, '')}.example.com`,
    })),
  );
}
