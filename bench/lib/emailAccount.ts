import { randomBytes } from 'node:crypto';
import { createAccount } from '../../src/auth/service';
import { activateKey, recordKeyCheck } from '../../src/email/dkim/store';
import { domainDetails, forgetAccountDomains } from '../../src/email/domains/service';
import { loadConfig } from '../../src/config';
import type { AppDeps } from '../../src/deps';
import { createMetrics } from '../../src/http/metrics';
import { createLogger } from '../../src/logger';
import type { BenchEnv } from './env';
import { BENCH_HASH_KEY } from './servers';

/** A fresh account with a verified sending domain (DKIM too), and app deps on the bench's database and Temporal to make its keys. */
export async function benchEmailAccount(
  env: BenchEnv,
  name: string,
  taskQueue: string,
): Promise<{ accountId: string; domain: string; deps: AppDeps }> {
  const tag = randomBytes(4).toString('hex');
  const { account } = await createAccount(env.db, BENCH_HASH_KEY, { name, ownerEmail: `owner-${tag}@example.com`, ownerName: 'Bench' });
  const domain = `bench-${tag}.example.com`;
  await env.db('email_domains').insert({
    account_id: account.id,
    name: domain,
    status: 'verified',
    verification_token: randomBytes(24).toString('hex'),
    verified_at: new Date(),
  });
  const deps: AppDeps = {
    config: loadConfig({ ...process.env, LOG_LEVEL: 'warn', SECRET_HASH_KEY: BENCH_HASH_KEY }),
    db: env.db,
    logger: createLogger('warn'),
    metrics: createMetrics(false),
    schedules: [],
    secretHashKey: BENCH_HASH_KEY,
    temporal: { client: env.client, namespace: env.temporal.namespace, taskQueue },
  };
  await activeDkimKey(env, deps, account.id, domain);
  return { accountId: account.id, domain, deps };
}

/** The domain's first DKIM key (made on its first read), verified and active, as a live send needs it. */
async function activeDkimKey(env: BenchEnv, deps: AppDeps, accountId: string, domain: string): Promise<void> {
  const domainId = (await env.db('email_domains').where({ account_id: accountId, name: domain }).first('id')).id as string;
  const [key] = (await domainDetails(deps, accountId, domainId)).records.filter((r) => r.ref.kind === 'dkim').map((r) => r.ref);
  if (key?.kind !== 'dkim') throw new Error('the bench domain got no DKIM key');
  await recordKeyCheck(env.db, key.keyId, { verified: true, error: null });
  await activateKey(env.db, domainId, key.keyId);
  forgetAccountDomains(accountId);
}

/** The message both email scenarios send: one recipient, HTML and text, a tag. */
export function benchMessage(domain: string): string {
  return JSON.stringify({
    from: `Bench <news@${domain}>`,
    to: ['reader@example.com'],
    subject: 'Your weekly digest',
    html: '<p>Hello from the bench.</p>',
    text: 'Hello from the bench.',
    tags: [{ name: 'campaign', value: 'bench' }],
  });
}
