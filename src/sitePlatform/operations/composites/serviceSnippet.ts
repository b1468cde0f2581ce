import { ApiError } from '../../../http/errors';
import type { CompositeContext } from './types';

/** The service's snippet as registered on a site: bump the version when its source changes. */
export const SNIPPET = { displayName: 'Workyard snippet', version: '1.0.0' } as const;

interface RegisteredScript {
  id: string;
  displayName?: string;
  version?: string;
}
interface AppliedScript {
  id: string;
  version: string;
  location: 'header' | 'footer';
  attributes?: Record<string, unknown>;
}

const sitePath = (params: Record<string, unknown>, rest: string) => `/sites/${encodeURIComponent(String(params.site_id))}${rest}`;

/** The inline script: loads the service's hosted tracker for this account. The account id is public here, like a tag id. */
export function snippetSource(publicUrl: string, accountId: string): string {
  const src = `${publicUrl.replace(/\/+$/, '')}/snippet/v1.js`;
  return (
    `(function(){var s=document.createElement('script');s.async=true;s.src=${JSON.stringify(src)};` +
    `s.setAttribute('data-workspace',${JSON.stringify(accountId)});document.head.appendChild(s);})();`
  );
}

async function appliedScripts(ctx: CompositeContext): Promise<AppliedScript[]> {
  const res = await ctx.client.request<{ scripts?: AppliedScript[] }>({
    method: 'GET',
    base: 'v2',
    path: sitePath(ctx.params, '/custom_code'),
  });
  return Array.isArray(res.body?.scripts) ? res.body.scripts : [];
}

async function putApplied(ctx: CompositeContext, scripts: AppliedScript[]) {
  return (
    await ctx.client.request<Record<string, unknown>>({
      method: 'PUT',
      base: 'v2',
      path: sitePath(ctx.params, '/custom_code'),
      body: { scripts },
    })
  ).body;
}

async function ourRegistrations(ctx: CompositeContext): Promise<RegisteredScript[]> {
  const list = await ctx.client.request<{ registeredScripts?: RegisteredScript[] }>({
    method: 'GET',
    base: 'v2',
    path: sitePath(ctx.params, '/registered_scripts'),
  });
  return (list.body?.registeredScripts ?? []).filter((s) => s.displayName === SNIPPET.displayName);
}

/** Lists the site's registered scripts first and adopts ours at this version; registers it only when missing. */
/** Lists the site's registered scripts first and adopts ours at this version; registers it only when missing. */
async function registeredSnippet(ctx: CompositeContext): Promise<{ id: string; registered: boolean; ourIds: Set<string> }> {
  const ours = await ourRegistrations(ctx);
  const ourIds = new Set(ours.map((s) => s.id));
  const found = ours.find((s) => s.version === SNIPPET.version);
  if (found) return { id: found.id, registered: false, ourIds };
  if (!ctx.config.PUBLIC_APP_URL)
    throw new ApiError(
      503,
      'site_platform_not_configured',
      'PUBLIC_APP_URL is not set on the service, so the snippet has no address to load from',
    );
  const created = await ctx.client.request<RegisteredScript>({
    method: 'POST',
    base: 'v2',
    path: sitePath(ctx.params, '/registered_scripts/inline'),
    body: { ...SNIPPET, sourceCode: snippetSource(ctx.config.PUBLIC_APP_URL, ctx.accountId) },
  });
  return { id: created.body.id, registered: true, ourIds: ourIds.add(created.body.id) };
}

const applyFailed = (err: unknown, scriptId: string) => {
  const upstream = err instanceof ApiError ? (err.extra.upstreamStatus ?? err.status) : undefined;
  const why = err instanceof ApiError ? `${err.code}: ${err.message}` : 'the platform could not be reached';
  return new ApiError(
    424,
    'snippet_apply_failed',
    `the snippet is registered (${scriptId}) but applying it to the site failed (${why}); run service_snippet_install again under a new Idempotency-Key to finish`,
    {
      details: { script_id: scriptId, step: 'apply' },
      upstreamStatus: upstream,
    },
  );
};

/**
 * service_snippet_install: register (or adopt) the service's inline script, then apply it site-wide beside the
 * site's other scripts, replacing an older version of ours. A failure after the registration is 424
 * snippet_apply_failed; running it again adopts the registration and finishes.
 */
export async function installSnippet(ctx: CompositeContext) {
  const script = await registeredSnippet(ctx);
  const location = (ctx.params.location as 'header' | 'footer' | undefined) ?? 'footer';
  try {
    const others = (await appliedScripts(ctx)).filter((s) => !script.ourIds.has(s.id));
    const applied = await putApplied(ctx, [...others, { id: script.id, version: SNIPPET.version, location }]);
    return {
      installed: true,
      script_id: script.id,
      version: SNIPPET.version,
      location,
      registered: script.registered,
      custom_code: applied,
    };
  } catch (err) {
    throw applyFailed(err, script.id);
  }
}

/** service_snippet_remove: writes the site's applied scripts back without ours; the registration stays (it is inert). */
export async function removeSnippet(ctx: CompositeContext) {
  const ourIds = new Set((await ourRegistrations(ctx)).map((s) => s.id));
  const applied = await appliedScripts(ctx);
  const kept = applied.filter((s) => !ourIds.has(s.id));
  if (kept.length === applied.length) return { removed: false };
  return { removed: true, custom_code: await putApplied(ctx, kept) };
}
