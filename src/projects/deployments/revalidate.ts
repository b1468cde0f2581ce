import { Agent, request } from 'undici';
import { BLOCKED_HOST_CODE, publicOnlyLookup } from '../../providers/safeLookup';
import { checkBaseUrl, revalidateUrl, type UrlPolicy } from './baseUrl';
import { revalidationSignature, SIGNATURE_HEADER } from './signature';

/** One post's deadline (connect, headers, body): fire-and-forget, so a slow site costs the delivery little. */
export const REVALIDATION_TIMEOUT_MS = 5_000;

/** Largest part of a site's answer read before the connection is dropped. */
const MAX_ANSWER_BYTES = 16 * 1024;

/**
 * What one post came to: `revalidated` (2xx), `failed_<status>` (any other answer; redirects are not followed),
 * `timeout`, `unreachable` (network error), `blocked_host` (the URL or what its host resolves to is not public
 * and private hosts are not allowed).
 */
export type RevalidationOutcome = 'revalidated' | `failed_${number}` | 'timeout' | 'unreachable' | 'blocked_host';

export interface PostOptions {
  policy: UrlPolicy;
  timeoutMs?: number;
  /** Unix seconds of the signature; now by default. */
  now?: () => number;
}

/** POSTs `{ "tags": [...] }` to `<baseUrl>/api/revalidate`, signed with the deployment's secret. Never throws. */
export async function postRevalidation(
  baseUrl: string,
  secret: string,
  tags: string[],
  options: PostOptions,
): Promise<RevalidationOutcome> {
  const checked = checkBaseUrl(baseUrl, options.policy);
  if ('problem' in checked) return 'blocked_host';
  const timeoutMs = options.timeoutMs ?? REVALIDATION_TIMEOUT_MS;
  const body = JSON.stringify({ tags });
  const timestamp = options.now?.() ?? Math.floor(Date.now() / 1000);
  const agent = new Agent({
    connect: { timeout: timeoutMs, ...(options.policy.FETCH_ALLOW_PRIVATE_HOSTS ? {} : { lookup: publicOnlyLookup }) },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    const response = await request(revalidateUrl(checked.url), {
      method: 'POST',
      body,
      dispatcher: agent,
      signal: deadline,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Workyard-Revalidation/1.0',
        [SIGNATURE_HEADER.toLowerCase()]: revalidationSignature(secret, timestamp, body),
      },
    });
    await response.body.dump({ limit: MAX_ANSWER_BYTES }).catch(() => undefined);
    return response.statusCode >= 200 && response.statusCode <= 299 ? 'revalidated' : `failed_${response.statusCode}`;
  } catch (err) {
    if (deadline.aborted) return 'timeout';
    const code = errorCode(err);
    if (code === BLOCKED_HOST_CODE) return 'blocked_host';
    if (/^UND_ERR_(CONNECT|HEADERS|BODY)_TIMEOUT$/.test(code)) return 'timeout';
    return 'unreachable';
  } finally {
    agent.destroy().catch(() => undefined);
  }
}

/** undici wraps socket errors; the code that explains the failure may sit on a cause. */
function errorCode(err: unknown): string {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth += 1) {
    if (typeof e.code === 'string' && e.code !== 'UND_ERR_SOCKET') return e.code;
  }
  return '';
}
