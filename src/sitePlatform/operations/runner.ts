import { ApiError } from '../../http/errors';
import { apiBaseFor, checkGates, declaresParam, getOperation, platformPath, routeVerb, type OperationDef } from '../registry';
import type { SitePlatformDeps } from '../connections/deps';
import { recordPublishAnswer } from '../connections/lastPublished';
import { resolveCredentials, type ResolvedCredentials } from '../connections/resolve';
import { requireOwnProject } from '../../projects/service';
import { auditWrite } from './audit';
import { clientForCredentials } from './clients';
import { invalidatesSnapshots, markSnapshotsStale, snapshotRead } from './cmsSnapshots';
import { compositeFor } from './composites';
import { setContentSource } from './contentSource';
import { withTargetLock } from './locks';
import { claimPublish } from './publishCooldown';
import type { OperationResult, SnapshotInfo } from './resultJson';
import { requireOwnSite, secondaryLocaleIds } from './sites';
import { runWebhookDelete } from './webhookDelete';

export interface OperationRequest {
  accountId: string;
  /** The dashboard route's project, or the agent route's optional project_id. */
  projectId?: string;
  /** The operation route's HTTP method. */
  method: string;
  action: unknown;
  /** Parameters as sent (query or JSON body) without `action` and `project_id`. */
  params: Record<string, unknown>;
  /** The audit actor, looked up only when a write is audited (reads never pay for it). */
  actor: () => Promise<string>;
}

export type { OperationResult };

const notConnected = () =>
  new ApiError(
    412,
    'site_platform_not_connected',
    'no site platform connection resolves for this account, project and site; connect first',
  );

/** Looks the action up and checks the verb before anything else: a wrong verb never runs. */
export function operationFor(action: unknown, method: string): OperationDef {
  const op = typeof action === 'string' ? getOperation(action) : undefined;
  if (!op) throw new ApiError(400, 'unknown_action', `unknown action ${typeof action === 'string' ? action : '(missing)'}`);
  const verb = routeVerb(op);
  if (method.toUpperCase() !== verb) throw new ApiError(400, 'wrong_verb', `${op.name} is a ${op.kind}; send it as ${verb}`);
  return op;
}

function validate(op: OperationDef, params: Record<string, unknown>): Record<string, unknown> {
  const parsed = op.params.safeParse(params);
  if (parsed.success) return parsed.data;
  // An unknown key is named at its full path, one entry each, so the caller sees exactly what would have been dropped.
  const unknown = parsed.error.issues.flatMap((i) =>
    i.code === 'unrecognized_keys' ? i.keys.map((key) => [...i.path, key].join('.')) : [],
  );
  const errors = [
    ...unknown.map((path) => ({ path, message: `unknown parameter of ${op.name}` })),
    ...parsed.error.issues.filter((i) => i.code !== 'unrecognized_keys').map((i) => ({ path: i.path.join('.'), message: i.message })),
  ];
  const message = unknown.length
    ? `${op.name} takes no parameter ${unknown.join(', ')}; nothing was sent`
    : `the parameters of ${op.name} are invalid`;
  throw new ApiError(400, 'validation_failed', message, { errors });
}

/**
 * site_id routes every platform operation (it picks the connection and must be one of the account's sites); an
 * operation whose schema does not declare it (site_list, token_introspect …) takes it for routing only.
 */
function ownParams(op: OperationDef, params: Record<string, unknown>): Record<string, unknown> {
  if (!('site_id' in params) || declaresParam(op, 'site_id')) return params;
  const { site_id: _routing, ...own } = params;
  return own;
}

/**
 * The one runner behind both operation routes and the MCP tools (and, later, chat and workflow nodes): action → verb → site
 * ownership → credentials → gates (scope, confirm, auth kind, locale) → parameter validation → publish cooldown →
 * target lock → platform call → audit. Idempotency slots are the caller's concern (service.ts: they depend on the route).
 */
export async function runOperation(deps: SitePlatformDeps, req: OperationRequest): Promise<OperationResult> {
  const op = operationFor(req.action, req.method);
  if (!op.platform) return runServiceAction(deps, op, req);

  const requested = typeof req.params.site_id === 'string' && req.params.site_id !== '' ? req.params.site_id : undefined;
  const requestedSite = requested ? await requireOwnSite(deps.db, req.accountId, requested) : undefined;
  const creds = await resolveCredentials(deps, req.accountId, { projectId: req.projectId, siteId: requested });
  if (!creds) throw notConnected();
  const siteId = requested ?? creds.siteId ?? undefined;
  // A project's bound site fills an omitted site_id, so dashboard callers need not repeat it.
  const params = siteId && req.params.site_id === undefined ? { ...req.params, site_id: siteId } : req.params;
  const site = requestedSite ?? (siteId ? await requireOwnSite(deps.db, req.accountId, siteId) : undefined);
  const secondary = secondaryLocaleIds(site);

  const gate = checkGates(op, {
    grantedScopes: creds.scope ?? '',
    authKind: creds.authKind,
    confirm: params.confirm,
    localeId: params.localeId,
    siteHasSecondaryLocale: secondary.length > 0,
    method: req.method,
  });
  if (gate) throw gate;
  if (op.localeGated && !secondary.includes(params.localeId as string)) {
    throw new ApiError(
      412,
      'secondary_locale_required',
      `localeId must name one of the site's secondary locales (${secondary.join(', ')})`,
    );
  }
  const valid = validate(op, ownParams(op, params));
  const composite = compositeFor(op.name, op.platform);
  const call = composite
    ? () =>
        composite({
          client: clientForCredentials(deps.config, creds),
          params: valid,
          config: deps.config,
          accountId: req.accountId,
        })
    : () => callPlatform(deps, op, valid, creds);
  const target = op.lockTarget ? String(valid[op.lockTarget]) : null;
  let result: unknown;
  let snapshot: SnapshotInfo | undefined;
  if (op.kind === 'read') {
    ({ result, snapshot } = await snapshotRead(deps.db, req.accountId, op, valid, call));
  } else if (op.name === 'site_publish') {
    const release = await claimPublish(deps.db, req.accountId, String(valid.site_id));
    try {
      result = await call();
    } catch (err) {
      await release();
      throw err;
    }
    await recordPublishAnswer(deps, req.accountId, String(valid.site_id), result);
  } else if (op.name === 'webhook_delete') {
    result = await runWebhookDelete(deps, req.accountId, String(valid.site_id), String(valid.webhook_id), call);
  } else if (target) {
    result = await withTargetLock(deps.db, req.accountId, `${op.lockTarget}:${target}`, call);
  } else {
    result = await call();
  }
  if (op.kind === 'write') {
    if (invalidatesSnapshots(op) && siteId) {
      await markSnapshotsStale(deps.db, siteId, typeof valid.collection_id === 'string' ? valid.collection_id : undefined);
    }
    await auditWrite(deps.db, req.accountId, op.name, await req.actor(), target ?? siteId ?? null);
  }
  return snapshot ? { action: op.name, result, snapshot } : { action: op.name, result };
}

// Parameters that steer the service, not the platform request: site_id routes and checks ownership, and is sent only
// where the platform's path names it.
const SERVICE_PARAMS = new Set(['confirm', 'with_bindings', 'site_id']);

const pathParamsOf = new Map<string, Set<string>>();
const pathParams = (path: string): Set<string> => {
  let names = pathParamsOf.get(path);
  if (!names) pathParamsOf.set(path, (names = new Set([...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))));
  return names;
};

async function callPlatform(
  deps: SitePlatformDeps,
  op: OperationDef,
  params: Record<string, unknown>,
  creds: ResolvedCredentials,
): Promise<unknown> {
  const platform = op.platform!;
  const inPath = pathParams(platform.path);
  const rest = Object.fromEntries(Object.entries(params).filter(([k, v]) => !inPath.has(k) && !SERVICE_PARAMS.has(k) && v !== undefined));
  const { localeId, ...others } = rest;
  const sendsBody = platform.method !== 'GET' && (platform.method !== 'DELETE' || platform.deleteBody === true);
  const query: Record<string, string | number | boolean> = {};
  if (typeof localeId === 'string') query.localeId = localeId;
  if (!sendsBody) {
    for (const [k, v] of Object.entries(others)) query[k] = typeof v === 'object' ? JSON.stringify(v) : (v as string | number | boolean);
  }
  const client = clientForCredentials(deps.config, creds);
  const res = await client.request({
    method: platform.method,
    base: apiBaseFor(op, params) ?? 'v2',
    path: platformPath(op, params)!,
    query,
    body: sendsBody ? others : undefined,
  });
  return res.body ?? null;
}

async function runServiceAction(deps: SitePlatformDeps, op: OperationDef, req: OperationRequest): Promise<OperationResult> {
  const projectId = req.projectId ?? req.params.project_id;
  const params: Record<string, unknown> = { ...req.params, project_id: projectId };
  const gate = checkGates(op, {
    grantedScopes: '',
    authKind: 'oauth',
    confirm: params.confirm,
    siteHasSecondaryLocale: false,
    method: req.method,
  });
  if (gate) throw gate;
  const valid = validate(op, params) as { project_id: string; provider: 'native' | 'site_platform'; site_id?: string };
  await requireOwnProject(deps.db, req.accountId, valid.project_id);
  if (valid.provider === 'site_platform') {
    await requireOwnSite(deps.db, req.accountId, valid.site_id!);
    if (!(await resolveCredentials(deps, req.accountId, { projectId: valid.project_id, siteId: valid.site_id }))) throw notConnected();
  }
  await setContentSource(deps.db, req.accountId, valid.project_id, valid.provider, valid.site_id ?? null);
  await auditWrite(deps.db, req.accountId, op.name, await req.actor(), valid.project_id);
  return {
    action: op.name,
    result: { project_id: valid.project_id, provider: valid.provider, site_id: valid.provider === 'native' ? null : valid.site_id },
  };
}
