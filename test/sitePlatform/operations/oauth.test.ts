import assert from 'node:assert/strict';
import { newAccount } from '../../helpers/accounts';
import { addClient, addSite, authorize, openCallback, registerClient, startSiteWorld, type SiteWorld } from '../connections/fixtures';
import { OPS, query } from './fixtures';

describe('site platform operation routes: OAuth connections', () => {
  let world: SiteWorld;
  before(async () => {
    world = await startSiteWorld();
  });
  after(async () => {
    await world.close();
  });

  it('an OAuth connection passes the auth-kind gate and a locale-gated write runs on a secondary locale', async () => {
    const account = await newAccount();
    const site = addSite(world, 'Multi', { secondaryLocales: ['fr'] });
    const page = world.sim.addPage(site.id, { title: 'Accueil' });
    await registerClient(world, account, addClient(world, [site.id]));
    const connected = await openCallback(await authorize(world, account, { intent: 'site_account_connect' }));
    assert.equal(connected.status, 200, connected.text);

    const who = await world.app.call('GET', `${OPS}${query({ action: 'token_authorized_by' })}`, { token: account.agentKey });
    assert.equal(who.status, 200, who.text);
    assert.ok(who.body.result.email);

    const fr = world.sim.site(site.id)!.locales.secondary[0];
    const nodeId = `${page.id}-heading`;
    const res = await world.app.call('POST', OPS, {
      token: account.agentKey,
      body: { action: 'page_dom_update', site_id: site.id, page_id: page.id, localeId: fr.id, nodes: [{ nodeId, text: 'Bonjour' }] },
    });
    assert.equal(res.status, 200, res.text);
    const read = await world.app.call(
      'GET',
      `${OPS}${query({ action: 'page_dom_get', site_id: site.id, page_id: page.id, localeId: fr.id })}`,
      { token: account.agentKey },
    );
    assert.equal(read.status, 200, read.text);
    assert.ok(JSON.stringify(read.body.result.nodes).includes('Bonjour'), read.text);
  });
});
