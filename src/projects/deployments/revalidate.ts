import { postOutbound } from '../../clients/providers/outboundPost';
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
  const body = JSON.stringify({ tags });
  const timestamp = options.now?.() ?? Math.floor(Date.now() / 1000);
  const result = await postOutbound(
    revalidateUrl(checked.url),
    body,
    { [SIGNATURE_HEADER.toLowerCase()]: revalidationSignature(secret, timestamp, body) },
    {
      timeoutMs: options.timeoutMs ?? REVALIDATION_TIMEOUT_MS,
      allowPrivateHosts: options.policy.FETCH_ALLOW_PRIVATE_HOSTS,
      userAgent: 'Workyard-Revalidation/1.0',
      maxAnswerBytes: MAX_ANSWER_BYTES,
    },
  );
  if (result.kind !== 'answered') return result.kind;
  return result.status >= 200 && result.status <= 299 ? 'revalidated' : `failed_${result.status}`;
}
