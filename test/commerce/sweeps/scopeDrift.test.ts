import assert from 'node:assert/strict';
import { REQUESTED_SCOPES } from '../../../src/commerce/oauth/scopes';
import { harness } from '../../helpers/harness';
import { newShop } from '../webhooks/receiverKit';
import { inboxItems, runSweep } from './sweepKit';
import { commerceScopeDriftContract } from '../../../workflows/commerceScopeDrift.contract';

const KIND = 'commerce_reconnect_suggested';
const setScope = (connectionId: string, scope: string | null) =>
  harness().db('commerce_connections').where({ id: connectionId }).update({ scope });

describe('commerce-scope-drift sweep', () => {
  it('a connected shop missing requested scopes gets a reconnect suggestion naming them', async () => {
    const shop = await newShop();
    await setScope(shop.connectionId, 'read_orders,read_products, write_customers');
    const summary = await runSweep(commerceScopeDriftContract);
    const [item, ...rest] = await inboxItems(shop.accountId, KIND);
    assert.equal(rest.length, 0);
    assert.equal(item.dedup_key, `commerce:reconnect-suggested:${shop.connectionId}`);
    assert.deepEqual(item.body.missing, ['write_products', 'read_content', 'write_content', 'read_themes', 'write_themes']);
    assert.deepEqual(item.body.granted, ['read_orders', 'read_products', 'write_customers']);
    const entry = summary.connections.find((c: { connection_id: string }) => c.connection_id === shop.connectionId);
    assert.deepEqual([entry.status, entry.inbox_item_created], ['missing_scopes', true]);
  });

  it('a shop with no recorded scope misses all nine', async () => {
    const shop = await newShop();
    await setScope(shop.connectionId, null);
    await runSweep(commerceScopeDriftContract);
    assert.deepEqual((await inboxItems(shop.accountId, KIND))[0].body.missing, [...REQUESTED_SCOPES]);
  });

  it('a full grant (a write scope standing for its read scope) and a disconnected shop raise nothing', async () => {
    const full = await newShop();
    await setScope(full.connectionId, REQUESTED_SCOPES.join(','));
    const writesOnly = await newShop();
    await setScope(writesOnly.connectionId, 'write_products,read_orders,write_customers,write_content,write_themes');
    const gone = await newShop();
    await harness().db('commerce_connections').where({ id: gone.connectionId }).update({ disconnected_at: new Date() });
    await runSweep(commerceScopeDriftContract);
    for (const shop of [full, writesOnly, gone]) assert.deepEqual(await inboxItems(shop.accountId, KIND), []);
  });

  it('a second run raises no second suggestion while the first is open, and a new one once it is resolved', async () => {
    const shop = await newShop();
    await runSweep(commerceScopeDriftContract);
    const again = await runSweep(commerceScopeDriftContract);
    assert.equal(again.connections.find((c: { connection_id: string }) => c.connection_id === shop.connectionId).inbox_item_created, false);
    const items = await inboxItems(shop.accountId, KIND);
    assert.equal(items.length, 1);
    await harness().db('inbox_items').where({ id: items[0].id }).update({ resolved_at: new Date() });
    await runSweep(commerceScopeDriftContract);
    assert.equal((await inboxItems(shop.accountId, KIND)).length, 2);
  });

  it('a run out of budget stops cleanly and answers partial: true', async () => {
    await newShop();
    const summary = await runSweep(commerceScopeDriftContract, { budgetMs: 1, pageSize: 1 });
    assert.equal(summary.partial, true);
  });
});
