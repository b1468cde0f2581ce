/** The site activity log: every successful write under `/sites/{id}/…` is recorded, newest first when listed. */
import type { SimRequest, SimResponse } from './http';
import { siteData } from './siteData';
import { iso, newId, type SimState } from './state';

const OPERATION: Record<string, string> = { POST: 'CREATED', PUT: 'UPDATED', PATCH: 'UPDATED', DELETE: 'DELETED' };

export function recordActivity(state: SimState, req: SimRequest, response: SimResponse): void {
  const operation = OPERATION[req.method];
  const site = /^\/sites\/([^/]+)\/([^/]+)/.exec(req.path);
  if (!operation || !site || response.status >= 300 || !state.sites.has(site[1])) return;
  siteData(state, site[1]).activity.push({
    id: newId(), createdOn: iso(state.now()), event: `${site[2]}_${operation.toLowerCase()}`, resourceOperation: operation,
    resourceId: site[1], resourceName: site[2],
  });
}
