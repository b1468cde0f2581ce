import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { sitePlatformEventRetentionContract } from '../../../workflows/sitePlatformEventRetention.contract';
import { startSweepWorld, type SweepWorld } from './sweepKit';

interface EventFixture {
  ageHours: number;
  verified: boolean;
  dispatched?: boolean;
}

describe('site-platform-event-retention sweep', () => {
  let world: SweepWorld;
  before(async () => {
    world = await startSweepWorld();
  });
  after(async () => {
    await world.close();
  });

  /** Inbound event rows of a fresh account, `ageHours` old; answers their seqs in the fixtures' order. */
  async function events(fixtures: EventFixture[]): Promise<{ accountId: string; seqs: string[] }> {
    const { db } = harness();
    const { accountId } = await newAccount();
    const connectionId = randomUUID();
    const seqs: string[] = [];
    for (const f of fixtures) {
      const [row] = await db('site_platform_inbound_events')
        .insert({
          account_id: accountId,
          connection_id: connectionId,
          site_id: f.verified ? 'site_retention' : null,
          event_id: f.verified ? randomUUID() : `unverified:${randomUUID()}`,
          trigger_type: f.verified ? 'site_publish' : null,
          payload: JSON.stringify({}),
          verified: f.verified,
          verification: f.verified ? 'hmac' : 'failed',
          received_at: db.raw('now() - make_interval(hours => ?)', [f.ageHours]),
          dispatched_at: f.verified && f.dispatched !== false ? db.raw('now() - make_interval(hours => ?)', [f.ageHours]) : null,
        })
        .returning('seq');
      seqs.push(String(row.seq));
    }
    return { accountId, seqs };
  }
  const remaining = async (accountId: string) =>
    (await harness().db('site_platform_inbound_events').where({ account_id: accountId }).orderBy('seq').select('seq')).map((r) =>
      String(r.seq),
    );

  it('deletes verified events older than 30 days and unverified rows older than 3 days, and nothing younger', async () => {
    const { accountId, seqs } = await events([
      { ageHours: 31 * 24, verified: true }, // 0: deleted
      { ageHours: 29 * 24, verified: true }, // 1: kept
      { ageHours: 3 * 24 + 1, verified: false }, // 2: deleted
      { ageHours: 3 * 24 - 1, verified: false }, // 3: kept
      { ageHours: 1, verified: true }, // 4: kept
    ]);
    const result = await world.run(sitePlatformEventRetentionContract, {});
    assert.equal(result.partial, false);
    assert.ok(result.deleted_verified >= 1 && result.deleted_unverified >= 1, JSON.stringify(result));
    assert.deepEqual(await remaining(accountId), [seqs[1], seqs[3], seqs[4]]);
  });

  it('a verified event the relay has not dispatched yet is work: kept however old', async () => {
    const { accountId, seqs } = await events([{ ageHours: 60 * 24, verified: true, dispatched: false }]);
    await world.run(sitePlatformEventRetentionContract, {});
    assert.deepEqual(await remaining(accountId), seqs);
  });

  it('deletes in bounded batches until none is left', async () => {
    const { accountId } = await events(Array.from({ length: 7 }, () => ({ ageHours: 40 * 24, verified: true })));
    const result = await world.run(sitePlatformEventRetentionContract, { batchSize: 2 });
    assert.equal(result.partial, false);
    assert.ok(result.deleted_verified >= 7);
    assert.deepEqual(await remaining(accountId), []);
  });

  it('a run out of budget stops cleanly and answers partial: true (the next run finishes)', async () => {
    const { accountId } = await events([{ ageHours: 40 * 24, verified: true }]);
    const cut = await world.run(sitePlatformEventRetentionContract, { budgetMs: 1 });
    assert.equal(cut.partial, true);
    await world.run(sitePlatformEventRetentionContract, {});
    assert.deepEqual(await remaining(accountId), []);
  });
});
