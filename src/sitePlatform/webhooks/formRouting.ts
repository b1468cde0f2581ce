import { ApiError } from '../../http/errors';
import { listSiteWebhooks, type PlatformWebhook, type SitePlatformClient } from '../../clients/sitePlatform';
import type { SitePlatformDeps } from '../connections/deps';
import { resolveCredentials } from '../connections/resolve';
import { clientFor } from '../operations/clients';
import { expectedReceiverUrl, MAX_REGISTRATIONS_PER_TRIGGER, registerSiteLocked, type SiteRegistrationReport } from './registration';
import { withSiteWebhookLock } from './siteLock';
import { findFormRouting, saveFormRouting, type FormRoutingMode } from './subscriptionsStore';
import { isReceiverUrlOf } from './urlToken';

/** A form as the platform's form_submission filter names it: `{ name }`, the form's name (its `displayName` in the forms API). */
export interface FormRef {
  name: string;
}

/** A switch: the whole site to site-wide or to per-form for the named forms, or one form on or off in per-form mode. */
export type FormRoutingSwitch = { mode: 'site_wide' } | { mode: 'per_form'; forms: FormRef[] } | { form: FormRef; routed: boolean };

export interface FormRoutingView {
  project_id: string;
  connection_id: string;
  site_id: string;
  mode: FormRoutingMode;
  /** per_form: the forms routed, by name; site_wide: empty (every form routes). */
  forms: FormRef[];
  /** True while an unfiltered form_submission registration of this connection lives on the site. */
  site_wide_hook_live: boolean;
  /** The site's live form_submission registrations (their URLs are never shown: they carry the URL token). */
  registrations: Array<{
    id: string;
    triggerType: string;
    filter: FormRef | null;
    createdOn: string | null;
    /** current: this connection at its current URL; stale: this connection at an old URL; other: another registrant. */
    receiver: 'current' | 'stale' | 'other';
  }>;
}

export const formRoutingSiteWide = () =>
  new ApiError(
    409,
    'form_routing_site_wide',
    'a site-wide form_submission webhook is live on this site: switch the site to per-form routing first (mode per_form with the forms to route)',
  );

const notConnected = (why: string) => new ApiError(412, 'site_platform_not_connected', why);

interface Target {
  projectId: string;
  connectionId: string;
  siteId: string;
  client: SitePlatformClient;
  url: string;
}

/** The project's connection and site (doc2 resolution); a site token is 412 oauth_required before the platform is called. */
async function targetOf(deps: SitePlatformDeps, accountId: string, projectId: string): Promise<Target> {
  const creds = await resolveCredentials(deps, accountId, { projectId });
  if (!creds) throw notConnected('no site platform connection resolves for this project; connect first');
  if (!creds.siteId) throw notConnected('the project is bound to no site; set its binding with a site_id');
  if (creds.authKind !== 'oauth')
    throw new ApiError(412, 'oauth_required', 'form routing registers webhooks, which the platform allows only for OAuth connections');
  return {
    projectId,
    connectionId: creds.connectionId,
    siteId: creds.siteId,
    client: clientFor(deps.config, creds.connectionId, creds.token),
    url: expectedReceiverUrl(deps, creds.connectionId),
  };
}

async function viewOf(deps: SitePlatformDeps, accountId: string, target: Target, listed: PlatformWebhook[]): Promise<FormRoutingView> {
  const routing = await findFormRouting(deps.db, accountId, target.siteId);
  const forms = listed.filter((h) => h.triggerType === 'form_submission');
  const receiver = (h: PlatformWebhook) =>
    h.url === target.url ? 'current' : isReceiverUrlOf(h.url, target.connectionId) ? 'stale' : 'other';
  const mode = routing?.mode ?? 'site_wide';
  return {
    project_id: target.projectId,
    connection_id: target.connectionId,
    site_id: target.siteId,
    mode,
    forms: mode === 'per_form' ? (routing?.form_names ?? []).map((name) => ({ name })) : [],
    site_wide_hook_live: forms.some((h) => !h.filter && receiver(h) !== 'other'),
    registrations: forms.map((h) => ({
      id: h.id,
      triggerType: h.triggerType,
      filter: h.filter,
      createdOn: h.createdOn,
      receiver: receiver(h),
    })),
  };
}

/** GET: the site's routing mode and its live form_submission registrations. */
export async function readFormRouting(deps: SitePlatformDeps, accountId: string, projectId: string): Promise<FormRoutingView> {
  const target = await targetOf(deps, accountId, projectId);
  const { webhooks } = await listSiteWebhooks(target.client, target.siteId);
  return viewOf(deps, accountId, target, webhooks);
}

const unique = (names: string[]) => [...new Set(names)];

/**
 * POST: switches the site's form routing and re-registers its webhooks under the site's lock (create first, delete
 * last). Site-wide: one unfiltered form_submission registration, every per-form one of this connection deleted.
 * Per-form (the site): one filtered registration per named form, the site-wide one deleted. One form on or off: only in
 * per-form mode; while the site is site-wide or a site-wide registration of this connection is live, 409
 * form_routing_site_wide and nothing changes. The mode is stored, so reconnects and reconciles keep it.
 */
export async function switchFormRouting(
  deps: SitePlatformDeps,
  accountId: string,
  projectId: string,
  change: FormRoutingSwitch,
): Promise<FormRoutingView & { report: SiteRegistrationReport }> {
  const target = await targetOf(deps, accountId, projectId);
  const report = await withSiteWebhookLock(deps.db, target.siteId, async () => {
    const listed = await listSiteWebhooks(target.client, target.siteId);
    const routing = await findFormRouting(deps.db, accountId, target.siteId);
    let next: { mode: FormRoutingMode; form_names: string[] };
    if ('form' in change) {
      const siteWideLive = listed.webhooks.some(
        (h) => h.triggerType === 'form_submission' && !h.filter && isReceiverUrlOf(h.url, target.connectionId),
      );
      if (routing?.mode !== 'per_form' || siteWideLive) throw formRoutingSiteWide();
      const names = change.routed
        ? unique([...routing.form_names, change.form.name])
        : routing.form_names.filter((n) => n !== change.form.name);
      if (names.length > MAX_REGISTRATIONS_PER_TRIGGER) {
        throw new ApiError(
          409,
          'webhook_limit_reached',
          `at most ${MAX_REGISTRATIONS_PER_TRIGGER} forms can be routed one by one on a site`,
        );
      }
      next = { mode: 'per_form', form_names: names };
    } else if (change.mode === 'per_form') {
      next = { mode: 'per_form', form_names: unique(change.forms.map((f) => f.name)) };
    } else {
      next = { mode: 'site_wide', form_names: [] };
    }
    await saveFormRouting(deps.db, accountId, target.siteId, next);
    const outcome = await registerSiteLocked(deps, {
      accountId,
      connection: { id: target.connectionId, auth_kind: 'oauth' },
      client: target.client,
      siteId: target.siteId,
      url: target.url,
      listed,
    });
    deps.logger.info(
      {
        accountId,
        connectionId: target.connectionId,
        siteId: target.siteId,
        mode: next.mode,
        forms: next.form_names.length,
        created: outcome.report.created,
        deleted: outcome.report.deleted,
        failed: outcome.report.failed.map((f) => `${f.trigger_type}:${f.code}`),
      },
      'site platform form routing switched',
    );
    return outcome.report;
  });
  const { webhooks } = await listSiteWebhooks(target.client, target.siteId);
  return { ...(await viewOf(deps, accountId, target, webhooks)), report };
}
