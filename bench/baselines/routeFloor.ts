import type { Middleware } from 'koa';
import type pg from 'pg';
import { CREDENTIAL_PREFIX, parseCredential, secretMatches } from '../../src/auth/secrets';
import type { Knex } from '../../src/db/knex';

/**
 * A bare authenticated handler: takes the bearer token, parses the session credential, runs the same credential
 * lookup our auth runs (the same SQL, as the same named prepared statement, by the credential's id), compares the
 * secret's keyed hash in constant time, and answers the caller's account (401 otherwise). No validation, no request
 * id, no logging, no metrics, no error mapping.
 */
export function routeFloorBaseline(_db: Knex, pool: pg.Pool): Middleware {
  const hashKey = process.env.SECRET_HASH_KEY ?? '';
  return async (ctx) => {
    const match = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'));
    const parsed = match ? parseCredential(CREDENTIAL_PREFIX.session, match[1]) : null;
    const row = parsed
      ? (
          await pool.query({
            name: 'auth_find_session',
            text: 'select s.id, s.account_id, s.user_id, s.secret_hash, s.last_used_at, s.revoked_at, u.role from session_tokens s join users u on u.id = s.user_id where s.id = $1',
            values: [parsed.id],
          })
        ).rows[0]
      : undefined;
    if (!parsed || !row || row.revoked_at || !secretMatches(hashKey, parsed.secret, row.secret_hash as string)) {
      ctx.status = 401;
      ctx.body = { code: 'invalid_credentials' };
      return;
    }
    ctx.body = { ok: true, account_id: row.account_id as string };
  };
}
