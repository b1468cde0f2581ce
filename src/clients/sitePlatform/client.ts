import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { ApiError } from '../../http/errors';
import { countRateLimitRefusal } from '../../telemetry/metrics';
import { sitePlatformErrors } from './errors';
import { MALFORMED, retryAfterMs, send, type RawResponse } from './http';
import { introspectionSchema, authorizedBySchema, sitesSchema, toIntrospection, toAuthorizedUser, toSite } from './schemas';
import { TokenBucket } from './tokenBucket';
import type { SitePlatformClient, SitePlatformClientOptions, SitePlatformRequest, SitePlatformResponse } from './types';

const DEFAULT_MAX_RETRY_WAIT_MS = 60_000;

const requestSchema = z.object({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  path: z
    .string()
    .regex(/^\/[^?#]*$/, 'a path starting with / and without query or fragment')
    .refine((p) => !p.split('/').includes('..'), 'no .. segments'),
  base: z.enum(['v2', 'beta', 'root']),
  query: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).optional()).optional(),
  body: z.unknown().optional(),
});

const optionsSchema = z.object({
  apiUrl: z.url(),
  token: z.string().min(1),
  timeoutMs: z.number().int().positive(),
  maxRetryWaitMs: z.number().int().min(0).optional(),
});

/**
 * The site platform's Data API client for one connection. Every call draws on the connection's bucket (v2 and beta
 * alike); a remote 429 on a GET is retried once after `Retry-After`; everything else fails as a coded ApiError.
 */
export function createSitePlatformClient(options: SitePlatformClientOptions): SitePlatformClient {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) throw new ApiError(500, 'platform_client_misconfigured', 'the site platform client options are invalid');
  const apiUrl = options.apiUrl.replace(/\/+$/, '');
  const bucket = options.bucket ?? new TokenBucket();
  const maxRetryWaitMs = options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS;
  const wait = options.sleep ?? ((ms: number) => sleep(ms));

  function urlFor(req: SitePlatformRequest): string {
    const prefix = req.base === 'root' ? '' : `/${req.base}`;
    if (!req.query || Object.keys(req.query).length === 0) return `${apiUrl}${prefix}${req.path}`;
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(req.query)) if (v !== undefined) query.set(k, String(v));
    const qs = query.toString();
    return `${apiUrl}${prefix}${req.path}${qs ? `?${qs}` : ''}`;
  }

  async function attempt(req: SitePlatformRequest, call: string): Promise<RawResponse> {
    const admission = bucket.take();
    if (!admission.ok) {
      countRateLimitRefusal('site_platform_bucket');
      throw sitePlatformErrors.rateLimitedLocally(call, admission.retryAfterSeconds);
    }
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${options.token}` };
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    const res = await send({
      call,
      method: req.method,
      url: urlFor(req),
      headers,
      timeoutMs: options.timeoutMs,
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
    });
    const limit = Number(res.headers['x-ratelimit-limit']);
    if (Number.isInteger(limit) && limit > 0) bucket.resize(limit);
    const remaining = res.headers['x-ratelimit-remaining'];
    if (remaining !== undefined && remaining !== '') bucket.syncRemaining(Number(remaining));
    if (res.status === 429) bucket.holdFor(retryAfterMs(res.headers['retry-after']));
    return res;
  }

  async function request<T>(input: SitePlatformRequest): Promise<SitePlatformResponse<T>> {
    const checked = requestSchema.safeParse(input);
    if (!checked.success) {
      throw new ApiError(400, 'invalid_platform_request', 'the site platform request is invalid', {
        errors: checked.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      });
    }
    const req = input; // validated above; keeps the caller's narrower types
    const call = `${req.method} ${req.base === 'root' ? '' : `/${req.base}`}${req.path}`;
    let res = await attempt(req, call);
    if (res.status === 429 && req.method === 'GET') {
      const waitMs = retryAfterMs(res.headers['retry-after']);
      // Waiting longer than the cap would hold the caller too long; report the wait instead.
      if (waitMs <= maxRetryWaitMs) {
        await wait(waitMs);
        res = await attempt(req, call);
      }
    }
    if (res.status === 429) {
      throw sitePlatformErrors.rateLimitedRemotely(call, Math.max(1, Math.ceil(retryAfterMs(res.headers['retry-after']) / 1000)));
    }
    if (res.status >= 400) throw sitePlatformErrors.fromResponse(call, res.status, res.body === MALFORMED ? undefined : res.body);
    if (res.body === MALFORMED) throw sitePlatformErrors.malformed(call, res.status);
    return { status: res.status, body: res.body as T, headers: res.headers };
  }

  async function getParsed<S extends z.ZodType>(path: string, base: SitePlatformRequest['base'], schema: S): Promise<z.output<S>> {
    const res = await request({ method: 'GET', path, base });
    const parsed = schema.safeParse(res.body);
    if (!parsed.success) throw sitePlatformErrors.malformed(`GET ${path}`, res.status);
    return parsed.data;
  }

  return {
    request,
    introspect: async () => toIntrospection(await getParsed('/token/introspect', 'root', introspectionSchema)),
    authorizedBy: async () => toAuthorizedUser(await getParsed('/token/authorized_by', 'root', authorizedBySchema)),
    listSites: async () => (await getParsed('/sites', 'v2', sitesSchema)).sites.map(toSite),
  };
}
