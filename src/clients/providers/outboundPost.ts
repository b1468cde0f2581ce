import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { blockedAddressKind } from './privateAddress';
import { BLOCKED_HOST_CODE, publicOnlyLookup } from './safeLookup';

/**
 * POSTs to URLs our customers give us (email webhook endpoints, deployed sites' revalidation): one URL rule and one
 * POST with SSRF protection, a single deadline and a bounded read of the answer, so every caller gets the same guards.
 */

export const MAX_OUTBOUND_URL_LENGTH = 2048;

export interface OutboundUrlPolicy {
  /** Loopback and private hosts may be reached (FETCH_ALLOW_PRIVATE_HOSTS: tests and the sandbox). */
  allowPrivateHosts: boolean;
  /** Plain http may be used, for a loopback host only. */
  allowHttpLoopback: boolean;
}

const isLoopbackHost = (hostname: string) =>
  hostname === 'localhost' || hostname.endsWith('.localhost') || blockedAddressKind(hostname) === 'loopback';

/**
 * Why `raw` may not receive our posts, or null when it may: an absolute https URL (http only for a loopback host when
 * the policy allows it), no credentials, and unless private hosts are allowed no loopback, private or otherwise
 * non-public IP literal. Host names are checked again when a post connects (publicOnlyLookup), so a DNS answer that
 * changes later cannot slip a private address in.
 */
export function outboundUrlProblem(raw: string, policy: OutboundUrlPolicy): string | null {
  if (raw.length > MAX_OUTBOUND_URL_LENGTH) return `must be at most ${MAX_OUTBOUND_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not carry credentials';
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const loopback = isLoopbackHost(hostname);
  if (url.protocol === 'http:') {
    if (!(policy.allowHttpLoopback && loopback))
      return 'must use https (http is accepted only for a loopback host in tests and the sandbox)';
  } else if (url.protocol !== 'https:') {
    return 'must use https';
  }
  if (policy.allowPrivateHosts) return null;
  if (loopback) return 'must not point at a loopback host';
  const kind = isIP(hostname) ? blockedAddressKind(hostname) : null;
  if (kind) return `must not point at a ${kind.replace('_', '-')} address`;
  return null;
}

export interface OutboundPostOptions {
  /** One deadline for connect, headers and body. */
  timeoutMs: number;
  allowPrivateHosts: boolean;
  userAgent: string;
  /** Largest part of the answer read before the connection is dropped. */
  maxAnswerBytes: number;
}

/** What a POST came to; never the answer's body. Redirects are not followed (a 3xx is an answer). */
export type OutboundPostResult =
  { kind: 'answered'; status: number } | { kind: 'timeout' } | { kind: 'blocked_host' } | { kind: 'unreachable'; code: string };

/** Never throws. The caller has checked the URL with `outboundUrlProblem`. */
export async function postOutbound(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: OutboundPostOptions,
): Promise<OutboundPostResult> {
  const agent = new Agent({
    connect: { timeout: options.timeoutMs, ...(options.allowPrivateHosts ? {} : { lookup: publicOnlyLookup }) },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  const deadline = AbortSignal.timeout(options.timeoutMs);
  try {
    const response = await request(url, {
      method: 'POST',
      body,
      dispatcher: agent,
      signal: deadline,
      headers: { 'content-type': 'application/json', 'user-agent': options.userAgent, ...headers },
    });
    await response.body.dump({ limit: options.maxAnswerBytes }).catch(() => undefined);
    return { kind: 'answered', status: response.statusCode };
  } catch (err) {
    if (deadline.aborted) return { kind: 'timeout' };
    const code = errorCode(err);
    if (code === BLOCKED_HOST_CODE) return { kind: 'blocked_host' };
    if (/^UND_ERR_(CONNECT|HEADERS|BODY)_TIMEOUT$/.test(code)) return { kind: 'timeout' };
    return { kind: 'unreachable', code };
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
