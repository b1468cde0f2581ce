import type { SiteWorld } from '../connections/fixtures';
import { OPS, query, type Tenant } from '../operations/fixtures';

/**
 * Sends reads on the tenant's connection until the service refuses one with 429 (at most `max`); answers that refusal
 * and whether the platform saw a request for it. The connection's bucket follows the platform's remaining count, so
 * the refusal comes from the service's own bucket before the platform's window runs out.
 */
export async function burstUntilRefused(world: SiteWorld, tenant: Tenant, max = 130) {
  for (let i = 0; i < max; i += 1) {
    const mark = world.sim.requests().length;
    const res = await world.app.call('GET', `${OPS}${query({ action: 'site_get', site_id: tenant.siteId })}`, {
      token: tenant.account.agentKey,
    });
    if (res.status === 429) return { res, sent: world.sim.requests().length > mark, after: i };
    if (res.status !== 200) throw new Error(`burst read failed: ${res.status} ${res.text}`);
  }
  throw new Error(`no 429 within ${max} reads`);
}
