import type { Config } from '../../config';
import { MAX_OUTBOUND_URL_LENGTH, outboundUrlProblem } from '../../clients/providers/outboundPost';

export const MAX_BASE_URL_LENGTH = MAX_OUTBOUND_URL_LENGTH;

export type UrlPolicy = Pick<Config, 'FETCH_ALLOW_PRIVATE_HOSTS' | 'NODE_ENV'>;

export const BASE_URL_RULE =
  `an absolute https URL of at most ${MAX_BASE_URL_LENGTH} characters, without credentials, query or fragment, on a ` +
  'public host; revalidations go to `<base_url>/api/revalidate`. http and loopback or private hosts are accepted only when the service runs ' +
  'with FETCH_ALLOW_PRIVATE_HOSTS (tests and the sandbox), and http only for a loopback host outside NODE_ENV=production.';

/**
 * The deployment's base URL normalised (no trailing slash), or why it is refused: the outbound URL rule, without a
 * query or fragment, and http (loopback only) never in production.
 */
export function checkBaseUrl(raw: string, policy: UrlPolicy): { url: string } | { problem: string } {
  const allowPrivateHosts = policy.FETCH_ALLOW_PRIVATE_HOSTS;
  const problem = outboundUrlProblem(raw, { allowPrivateHosts, allowHttpLoopback: allowPrivateHosts && policy.NODE_ENV !== 'production' });
  if (problem) return { problem };
  const url = new URL(raw);
  if (url.search || url.hash || raw.includes('?') || raw.includes('#')) return { problem: 'must not carry a query or a fragment' };
  return { url: `${url.origin}${url.pathname.replace(/\/+$/, '')}` };
}

/** Where a deployment receives revalidations. */
export const revalidateUrl = (baseUrl: string) => `${baseUrl}/api/revalidate`;
