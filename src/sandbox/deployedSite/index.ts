import type { IncomingMessage, ServerResponse } from 'node:http';
import { FaultList, type PathFault } from '../kit/faultList';
import { readText, sendJson, startLoopbackServer, type LoopbackServer } from '../pages/loopback';
import { verifySignature } from './signature';

export interface SiteFault extends PathFault {
  /** Answer this status instead of revalidating. */
  status?: number;
  /** Wait this long before answering (timeouts on demand). */
  delayMs?: number;
  /** Drop the connection without an answer. */
  drop?: boolean;
}

export interface Revalidation {
  tags: string[];
  /** The signature's `t`. */
  timestamp: number;
  receivedAt: Date;
}

export interface DeployedSite {
  /** `http://127.0.0.1:<port>`: the deployment's base URL. */
  baseUrl: string;
  /** The revalidation secret it verifies with; set it from the create or rotate answer. Unset: every post is 401. */
  secret: string | undefined;
  /** Verified revalidations, in order. */
  revalidations: Revalidation[];
  /** Posts refused for a missing or bad signature. */
  rejected: number;
  /** Arms a failure for the next matching request(s). */
  fail(fault: SiteFault): void;
  clearFaults(): void;
  stop(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024;

/**
 * A deployed site on loopback, as a Next.js app with on-demand revalidation would be: `POST /api/revalidate` with
 * `{ "tags": [...] }` and a `Workyard-Signature` it verifies with its secret (401 `invalid_signature` otherwise), then
 * answers 200 `{ revalidated: true, now }`. `GET /api/revalidations` lists what it received (for the sandbox).
 */
export async function startDeployedSite(options: { secret?: string } = {}): Promise<DeployedSite> {
  const faults = new FaultList<SiteFault>('deployed site');

  async function handle(req: IncomingMessage, res: ServerResponse, loopback: LoopbackServer): Promise<void> {
    const path = new URL(req.url ?? '/', loopback.origin).pathname;
    if (path === '/api/revalidations' && req.method === 'GET') {
      return sendJson(res, 200, { data: site.revalidations, rejected: site.rejected });
    }
    if (path !== '/api/revalidate') return sendJson(res, 404, { error: 'not_found' });
    if (req.method !== 'POST') return sendJson(res, 405, { error: 'method_not_allowed' });
    const body = await readText(req, MAX_BODY_BYTES);
    const fault = faults.take(path);
    if (fault?.delayMs) await loopback.wait(fault.delayMs);
    if (fault?.drop) return void res.destroy();
    if (fault?.status) return sendJson(res, fault.status, { error: 'injected_failure' });
    if (body === undefined) return sendJson(res, 413, { error: 'payload_too_large' });
    const header = req.headers['workyard-signature'];
    if (!site.secret || !verifySignature(typeof header === 'string' ? header : undefined, body, site.secret)) {
      site.rejected += 1;
      return sendJson(res, 401, { error: 'invalid_signature' });
    }
    let tags: unknown;
    try {
      tags = (JSON.parse(body) as { tags?: unknown }).tags;
    } catch {
      return sendJson(res, 400, { error: 'invalid_json' });
    }
    if (!Array.isArray(tags) || !tags.every((t) => typeof t === 'string')) return sendJson(res, 400, { error: 'tags_required' });
    const timestamp = Number(/(?:^|,)\s*t=(\d+)/.exec(String(header))?.[1]);
    site.revalidations.push({ tags, timestamp, receivedAt: new Date() });
    sendJson(res, 200, { revalidated: true, now: Date.now() });
  }

  const server = await startLoopbackServer(handle);
  const site: DeployedSite = {
    baseUrl: server.origin,
    secret: options.secret,
    revalidations: [],
    rejected: 0,
    fail: (fault) => faults.add(fault),
    clearFaults: () => faults.clear(),
    stop: () => server.stop(),
  };
  return site;
}
