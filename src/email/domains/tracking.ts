import { invalidField } from '../../http/fieldErrors';
import { trackingCnameTarget, trackingNotConfigured } from '../tracking/links';
import * as checksStore from './checksStore';
import { domainDetails, domainNotFound, getDomain, type DomainDeps, type DomainDetails } from './details';
import { domainNameProblem, normaliseDomain } from './name';
import { returnPathHost } from './records';
import { forgetAccountDomains } from './sendingState';
import * as store from './store';

/** A PATCH of a domain's tracking settings: only the fields given change. */
export interface TrackingChange {
  openTracking?: boolean;
  clickTracking?: boolean;
  /** A name under the domain (`track.<domain>`), or null to stop using one. */
  trackingHost?: string | null;
}

/**
 * Changes the domain's tracking. Switching tracking on, or naming a tracking host, needs PUBLIC_APP_URL (the links are
 * made on it, and the tracking host is a CNAME of its host): 422 `tracking_not_configured` otherwise, and nothing
 * changes. A new tracking host starts unchecked: links use it once `POST …/verify` finds its CNAME. Sends see the
 * change at once on this replica and within 5 s on others.
 */
export async function updateTracking(deps: DomainDeps, accountId: string, id: string, change: TrackingChange): Promise<DomainDetails> {
  const domain = await getDomain(deps.db, accountId, id);
  const publicUrl = deps.config.PUBLIC_APP_URL;
  if ((change.openTracking || change.clickTracking) && !publicUrl) {
    throw trackingNotConfigured(
      'tracking makes its pixel and links on the public URL of this server, and it has none (PUBLIC_APP_URL is unset)',
      change.openTracking ? 'open_tracking' : 'click_tracking',
    );
  }
  const trackingHost = typeof change.trackingHost === 'string' ? trackingHostOf(change.trackingHost, domain.name) : change.trackingHost;
  if (trackingHost && !trackingCnameTarget(publicUrl)) {
    throw trackingNotConfigured(
      publicUrl
        ? 'a tracking host is a CNAME of the host of PUBLIC_APP_URL, which is an IP address'
        : 'a tracking host is a CNAME of the host of PUBLIC_APP_URL, which is unset',
      'tracking_host',
    );
  }
  const found = await deps.db.transaction(async (trx) => {
    const before = await store.lockDomain(trx, accountId, id);
    if (!before) return false;
    if (trackingHost !== undefined && trackingHost !== before.tracking_host) await checksStore.deleteCheck(trx, id, 'tracking_cname');
    await store.updateTracking(trx, accountId, id, {
      ...(change.openTracking !== undefined ? { open_tracking: change.openTracking } : {}),
      ...(change.clickTracking !== undefined ? { click_tracking: change.clickTracking } : {}),
      ...(trackingHost !== undefined ? { tracking_host: trackingHost } : {}),
    });
    return true;
  });
  forgetAccountDomains(accountId);
  if (!found) throw domainNotFound();
  return domainDetails(deps, accountId, id);
}

/** The tracking host in its stored form; 400 unless it is a name strictly under the domain, other than its return path. */
function trackingHostOf(value: string, domain: string): string {
  const host = normaliseDomain(value);
  const problem =
    domainNameProblem(host) ??
    (!host.endsWith(`.${domain}`) ? `must be a name under ${domain}, e.g. track.${domain}` : null) ??
    (host === returnPathHost(domain) ? `${host} is the return path of the domain (its MX and SPF records)` : null);
  if (problem) throw invalidField('body.tracking_host', problem);
  return host;
}
