import { randomBytes } from 'node:crypto';
import { saveBinding } from '../../../src/sitePlatform/connections/store';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { newProjectId } from '../../helpers/projects';
import { ALL_SCOPES, addSite, startSiteWorld, type SiteWorld } from '../connections/fixtures';

export const OPS = '/api/agent/web/site-platform-ops';
export const builderOps = (projectId: string) => `/api/builder/site-platform/${projectId}/ops`;

export interface Tenant {
  account: TestAccount;
  siteId: string;
  collectionId: string;
  itemIds: string[];
  pageId: string;
  projectId: string;
}

/**
 * An account connected by a pasted site token to one fresh simulator site (with a collection of items and a page),
 * and a project bound to it. `scopes` narrows the grant; `secondaryLocales` gives the site locales.
 */
export async function newTenant(world: SiteWorld, options: { scopes?: string[]; secondaryLocales?: string[] } = {}): Promise<Tenant> {
  const account = await newAccount();
  const site = addSite(world, 'Ops', { secondaryLocales: options.secondaryLocales });
  const collection = world.sim.addCollection(site.id, { displayName: `Posts ${randomBytes(2).toString('hex')}`, singularName: 'Post' });
  const items = world.sim.addItems(collection.id, 3);
  const page = world.sim.addPage(site.id, { title: 'Home' });
  const token = world.sim.issueToken({ scopes: options.scopes ?? ALL_SCOPES, siteIds: [site.id] });
  const res = await world.app.call('POST', '/api/site-platform/site-token', { token: account.ownerToken, body: { token } });
  if (res.status !== 201) throw new Error(`site token connect failed: ${res.status} ${res.text}`);
  const projectId = await newProjectId(account.accountId);
  await saveBinding(harness().db, account.accountId, projectId, { override_mode: 'inherit', connection_id: null, site_id: site.id });
  return { account, siteId: site.id, collectionId: collection.id, itemIds: items.map((i) => i.id), pageId: page.id, projectId };
}

/** Mocha hooks of a suite on one simulator world with one tenant: started before the suite, closed after it. */
export function useTenantWorld(onReady: (world: SiteWorld, tenant: Tenant) => void): void {
  let world: SiteWorld | undefined;
  before(async () => {
    world = await startSiteWorld();
    onReady(world, await newTenant(world));
  });
  after(async () => {
    await world?.close();
  });
}

/** Mocha hooks of a tenancy suite: one simulator world with two tenants, A and B, started before the suite, closed after it. */
export function useTwoTenantWorld(onReady: (world: SiteWorld, a: Tenant, b: Tenant) => void): void {
  let world: SiteWorld | undefined;
  before(async () => {
    world = await startSiteWorld();
    onReady(world, await newTenant(world), await newTenant(world));
  });
  after(async () => {
    await world?.close();
  });
}

export const query = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

/** Sim requests to the platform since a mark, as `METHOD path`. */
export function platformCallsSince(world: SiteWorld, mark: number): string[] {
  return world.sim
    .requests()
    .slice(mark)
    .map((r) => `${r.method} ${r.path}`);
}

export async function auditRows(accountId: string) {
  return harness().db('site_platform_audit').where({ account_id: accountId }).orderBy('at');
}
