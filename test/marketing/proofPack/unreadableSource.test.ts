import assert from 'node:assert/strict';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { getPack, seedProof, withConfig, type SeededProof } from './fixtures';

describe('proof pack: an unreadable source', () => {
  let acct: TestAccount;
  let seeded: SeededProof;
  before(async () => {
    acct = await newAccount('Locked Co');
    seeded = await seedProof(acct.accountId);
  });

  it('a locked table makes its source ok:false with a note while the other sources still return', async () => {
    const trx = await harness().db.transaction();
    try {
      await trx.raw('lock table crm_contact_activities in access exclusive mode');
      const started = Date.now();
      const res = await withConfig({ MODEL_API_KEY: undefined, PROOF_PACK_SOURCE_TIMEOUT_MS: 300 }, () => getPack(acct.ownerToken));
      assert.equal(res.status, 200, res.text);
      assert.ok(Date.now() - started < 5_000, 'the pack waits about one source deadline, not for the lock');
      assert.deepEqual(res.body.sources, [
        { kind: 'testimonials', ok: true, count: 2 },
        { kind: 'results', ok: true, count: 1 },
        { kind: 'crm_activities', ok: false, count: 0 },
        { kind: 'knowledge_bases', ok: true, count: 0 },
      ]);
      assert.ok(
        res.body.notes.some((n: string) => /^crm_activities: unreadable \(no answer within 300 ms\)/.test(n)),
        res.text,
      );
      const ids = res.body.data.map((e: { source: { id: string } }) => e.source.id);
      assert.ok(ids.includes(seeded.consentedId) && ids.includes(seeded.resultId));
      assert.ok(!ids.includes(seeded.reviewId));
    } finally {
      await trx.rollback();
    }
  });

  it('once the lock is gone the same source reads again', async () => {
    const res = await withConfig({ MODEL_API_KEY: undefined }, () => getPack(acct.ownerToken, 'kinds=review'));
    assert.deepEqual(res.body.sources, [{ kind: 'crm_activities', ok: true, count: 1 }]);
  });
});
