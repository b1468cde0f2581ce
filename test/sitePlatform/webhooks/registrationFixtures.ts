import assert from 'node:assert/strict';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { addClient, addSite, authorize, depsOf, openCallback, registerClient, type SiteWorld } from '../connections/fixtures';
import { expectedReceiverUrl } from '../../../src/sitePlatform/webhooks/registration';

export const TRIGGERS = [
  'site_publish',
  'collection_item_created',
  'collection_item_changed',
  'collection_item_deleted',
  'collection_item_published',
  'collection_item_unpublished',
  'page_created',
  'page_deleted',
  'page_metadata_updated',
  'form_submission',
  'comment_created',
];

/** An account with a registered OAuth client reaching `siteCount` fresh sites. */
export async function oauthAccount(world: SiteWorld, siteCount = 1) {
  const account = await newAccount();
  const sites = Array.from({ length: siteCount }, () => addSite(world));
  const client = addClient(
    world,
    sites.map((s) => s.id),
  );
  await registerClient(world, account, client);
  return { account, sites, client };
}

/** Runs an OAuth connect to the end; answers the callback's JSON body. */
export async function connectOAuth(
  world: SiteWorld,
  account: TestAccount,
  body: Record<string, unknown> = { intent: 'site_account_connect' },
) {
  const res = await openCallback(await authorize(world, account, body));
  assert.equal(res.status, 200, res.text);
  return res.body;
}

export const hooksOf = (world: SiteWorld, siteId: string) => world.sim.siteData(siteId).webhooks;

export const subscriptionRows = (accountId: string, siteId?: string) => {
  const q = harness().db('site_platform_webhook_subscriptions').where({ account_id: accountId });
  if (siteId) q.where({ site_id: siteId });
  return q.select('*');
};

export const receiverUrl = (world: SiteWorld, connectionId: string) => expectedReceiverUrl(depsOf(world), connectionId);

/** The simulator's requests from index `from` on, as `METHOD path`. */
export const requestsSince = (world: SiteWorld, from: number) =>
  world.sim
    .requests()
    .slice(from)
    .map((r) => `${r.method} ${r.path}`);
