import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type pg from 'pg';
import getRawBody from 'raw-body';
import { secretMatches } from '../../src/auth/secrets';
import { formatMailbox } from '../../src/email/send/addresses';
import { parseEmailKeyToken } from '../../src/email/keys/token';
import { messageSchema } from '../../src/email/send/schema';

interface CachedKey {
  accountId: string;
  secretHash: string;
  sentThisSecond: number;
  second: number;
}

/**
 * The work POST /v1/email/send must do for a test key, bare (one Koa handler, no route layer): the bearer key
 * checked against its cached hash in constant time, the body read and parsed, the message validated by the same
 * schema, the from domain checked against the account's cached verified domains, one indexed suppression SELECT
 * for the recipients (the least a send that must see every committed suppression does), a per-second count, and
 * the same response. No request id, logging, metrics, usage, idempotency, error mapping or coded errors.
 * `suppressionSelect: false` leaves out the one statement: the CPU work alone, no route layer and no database.
 */
export function emailSendFloorBaseline(pool: pg.Pool, { suppressionSelect }: { suppressionSelect: boolean }): Middleware {
  const hashKey = process.env.SECRET_HASH_KEY ?? '';
  const keys = new Map<string, CachedKey>();
  const domains = new Map<string, Set<string>>();
  const keyOf = async (id: string): Promise<CachedKey | undefined> => {
    const kept = keys.get(id);
    if (kept) return kept;
    const { rows } = await pool.query('select account_id, secret_hash from email_keys where id = $1 and revoked_at is null', [id]);
    if (!rows[0]) return undefined;
    const key = { accountId: rows[0].account_id as string, secretHash: rows[0].secret_hash as string, sentThisSecond: 0, second: 0 };
    keys.set(id, key);
    return key;
  };
  const domainsOf = async (accountId: string): Promise<Set<string>> => {
    let names = domains.get(accountId);
    if (!names) {
      const { rows } = await pool.query("select name from email_domains where account_id = $1 and status = 'verified'", [accountId]);
      domains.set(accountId, (names = new Set(rows.map((r) => r.name as string))));
    }
    return names;
  };
  return async (ctx) => {
    const match = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'));
    const parsed = match ? parseEmailKeyToken(match[1]) : null;
    const key = parsed ? await keyOf(parsed.id) : undefined;
    if (!parsed || !key || !secretMatches(hashKey, parsed.secret, key.secretHash)) {
      ctx.status = 401;
      return;
    }
    const raw = await getRawBody(ctx.req, { length: ctx.get('content-length') || undefined, limit: 1024 * 1024 });
    const result = messageSchema.safeParse(JSON.parse(raw.toString('utf8')));
    if (!result.success) {
      ctx.status = 400;
      return;
    }
    const message = result.data;
    if (!(await domainsOf(key.accountId)).has(message.from.domain)) {
      ctx.status = 403;
      return;
    }
    const recipients = [...message.to, ...message.cc, ...message.bcc].map((m) => m.address.toLowerCase());
    const suppressed = suppressionSelect
      ? await pool.query({
          name: 'floor_suppressed',
          text: 'select email from email_suppressions where account_id = $1 and email = any($2::text[])',
          values: [key.accountId, recipients],
        })
      : { rows: [] };
    if (suppressed.rows.length > 0) {
      ctx.status = 422;
      return;
    }
    const second = Math.floor(Date.now() / 1000);
    if (key.second !== second) [key.second, key.sentThisSecond] = [second, 0];
    key.sentThisSecond++;
    const id = randomUUID();
    ctx.set({ 'RateLimit-Limit': '10000', 'RateLimit-Remaining': String(10_000 - key.sentThisSecond), 'RateLimit-Reset': '1' });
    ctx.body = {
      id,
      object: 'email',
      messageId: `<${id}@${message.from.domain}>`,
      test: true,
      status: 'simulated',
      from: formatMailbox(message.from),
      to: message.to.map(formatMailbox),
      created_at: new Date().toISOString(),
    };
  };
}
