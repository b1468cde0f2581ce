import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ApiError } from '../http/errors';

/**
 * Read-only tokens for one job's event stream: `wyjt_<payload>.<mac>`, payload base64url JSON `{a, j, e}` (account,
 * job id, expiry in Unix seconds), mac HMAC-SHA256 over `wyjt_<payload>`. Stateless: nothing is stored, so a token
 * lives until it expires (at most an hour).
 */
const PREFIX = 'wyjt_';
const PURPOSE = 'workyard job token v1';

export const JOB_TOKEN_TTL = { min: 60, max: 3600, default: 900 } as const;

const Payload = z.object({ a: z.string().min(1), j: z.string().min(1), e: z.number().int() });

export interface JobTokenClaims {
  accountId: string;
  jobId: string;
  expiresAt: Date;
}

export const jobTokenInvalid = () => new ApiError(401, 'job_token_invalid', 'the job token is malformed, altered or for another job');
export const jobTokenExpired = () => new ApiError(401, 'job_token_expired', 'the job token has expired; ask for a new one');

/** Its own key, so a job token's MAC can never pass as any other HMAC made with the secret hash key. */
function tokenKey(secretHashKey: string): Buffer {
  return createHmac('sha256', secretHashKey).update(PURPOSE).digest();
}

function macOf(secretHashKey: string, signed: string): Buffer {
  return createHmac('sha256', tokenKey(secretHashKey)).update(signed).digest();
}

export function mintJobToken(
  secretHashKey: string,
  accountId: string,
  jobId: string,
  ttlSeconds: number,
  now = Date.now(),
): { token: string; expiresAt: Date } {
  const exp = Math.floor(now / 1000) + ttlSeconds;
  const signed = PREFIX + Buffer.from(JSON.stringify({ a: accountId, j: jobId, e: exp })).toString('base64url');
  return { token: `${signed}.${macOf(secretHashKey, signed).toString('base64url')}`, expiresAt: new Date(exp * 1000) };
}

/** The claims of a token for `jobId`: 401 `job_token_invalid` for anything else, `job_token_expired` once expired. */
export function verifyJobToken(secretHashKey: string, token: string, jobId: string, now = Date.now()): JobTokenClaims {
  const dot = token.lastIndexOf('.');
  if (!token.startsWith(PREFIX) || dot < 0) throw jobTokenInvalid();
  const signed = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = macOf(secretHashKey, signed);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw jobTokenInvalid();
  let claims: z.infer<typeof Payload>;
  try {
    claims = Payload.parse(JSON.parse(Buffer.from(signed.slice(PREFIX.length), 'base64url').toString('utf8')));
  } catch {
    throw jobTokenInvalid();
  }
  if (claims.j !== jobId) throw jobTokenInvalid();
  if (claims.e * 1000 <= now) throw jobTokenExpired();
  return { accountId: claims.a, jobId: claims.j, expiresAt: new Date(claims.e * 1000) };
}
