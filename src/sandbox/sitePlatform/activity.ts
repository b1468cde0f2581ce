/**
 * The site activity log. The platform logs designer and publishing activity under a fixed set of events (the
 * reference's SiteActivityLogItemEvent), not every API write; the simulator records the writes that have one:
 * a site publish, a site custom-code change and a collection created. Listed newest first.
 */
import type { SimRequest, SimResponse } from './http';
import { siteData } from './siteData';
import { iso, newId, type SimState } from './state';

interface LoggedEvent {
  event: string;
  resourceOperation: string;
}

function eventOf(method: string, family: string): LoggedEvent | undefined {
  if (family === 'publish' && method === 'POST') return { event: 'site_published', resourceOperation: 'PUBLISHED' };
  if (family === 'custom_code' && (method === 'PUT' || method === 'DELETE'))
    return { event: 'site_custom_code_modified', resourceOperation: 'MODIFIED' };
  if (family === 'collections' && method === 'POST') return { event: 'cms_collection', resourceOperation: 'CREATED' };
  return undefined;
}

export function recordActivity(state: SimState, req: SimRequest, response: SimResponse): void {
  const site = /^\/sites\/([^/]+)\/([^/]+)$/.exec(req.path);
  if (!site || response.status >= 300 || !state.sites.has(site[1])) return;
  const logged = eventOf(req.method, site[2]);
  if (!logged) return;
  const now = iso(state.now());
  const u = state.user;
  siteData(state, site[1]).activity.push({
    id: newId(),
    createdOn: now,
    lastUpdated: now,
    ...logged,
    resourceId: site[1],
    resourceName: site[2],
    user: { id: u.id, displayName: `${u.firstName} ${u.lastName}` },
  });
}
