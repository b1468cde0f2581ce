import assert from 'node:assert/strict';
import { deleteSubmission, recordPlatformSubmission } from '../../../src/forms/service';
import { ledgerStats, ledgerStatsByPath } from '../../../src/marketing/analytics/ledgerStats';
import { harness } from '../../helpers/harness';
import { newProjectId } from '../../helpers/projects';
import { bind, boundProject, contactOf, hoursAgo, onPage, submit } from './fixtures';

describe('content analytics: forms-ledger stats per (project, page path, range)', () => {
  it('leads leave out spam, duplicate and deleted rows', async () => {
    const { accountId, projectId, siteId } = await boundProject();
    await submit(accountId, siteId, { email: 'kept@example.test' });
    await submit(accountId, siteId, { fields: { honeypot: 'I am a bot' } });
    await submit(accountId, siteId, { email: 'twice@example.test', at: hoursAgo(3) });
    await submit(accountId, siteId, { email: 'twice@example.test', at: hoursAgo(2) });
    await deleteSubmission(harness().db, accountId, await submit(accountId, siteId));
    const rows = await harness().db('form_submissions').where({ account_id: accountId });
    assert.deepEqual([rows.length, rows.filter((r) => r.spam).length, rows.filter((r) => r.duplicate).length], [5, 1, 1]);
    assert.equal((await ledgerStats(harness().db, accountId, projectId, '/'))?.leads, 2);
  });

  it('a page with no counted row is absent, not zero (spam alone counts for nothing)', async () => {
    const { accountId, projectId, siteId } = await boundProject();
    await onPage(await submit(accountId, siteId), '/pricing');
    await onPage(await submit(accountId, siteId, { fields: { 'bot-field': 'x' } }), '/spam-only');
    const stats = await ledgerStatsByPath(harness().db, accountId, projectId, ['/pricing/', '/spam-only', '/never', 'mailto:x']);
    assert.deepEqual([...stats.keys()], ['/pricing']);
    assert.deepEqual(stats.get('/pricing'), { leads: 1, contacts: 0 });
    assert.equal(await ledgerStats(harness().db, accountId, projectId, '/never'), undefined);
  });

  it('paths are matched in their normalised form (URL, query, trailing slash)', async () => {
    const { accountId, projectId, siteId } = await boundProject();
    await onPage(await submit(accountId, siteId), '/blog/post');
    const stats = await ledgerStatsByPath(harness().db, accountId, projectId, [
      'https://example.com/blog/post/?utm_source=x',
      '/blog/post',
    ]);
    assert.deepEqual([...stats.entries()], [['/blog/post', { leads: 1, contacts: 0 }]]);
  });

  it("another account's rows are never counted, even on the same site and project id", async () => {
    const mine = await boundProject();
    const other = await boundProject();
    // The other account binds the same site name: its rows stay its own.
    await bind(other.accountId, await newProjectId(other.accountId), mine.siteId);
    await submit(other.accountId, mine.siteId);
    await submit(other.accountId, other.siteId);
    assert.equal(await ledgerStats(harness().db, mine.accountId, mine.projectId, '/'), undefined);
    assert.equal(await ledgerStats(harness().db, mine.accountId, other.projectId, '/'), undefined, "another account's project");
  });

  it('contacts: distinct CRM contacts resolved from the rows (linked contact, else the contact with the email)', async () => {
    const { accountId, projectId, siteId } = await boundProject();
    await contactOf(accountId, 'known@example.test');
    await submit(accountId, siteId, { email: 'known@example.test', historical: true, at: hoursAgo(50) });
    await submit(accountId, siteId, { email: 'KNOWN@example.test', form: 'Newsletter', at: hoursAgo(40) });
    await submit(accountId, siteId, { email: 'stranger@example.test' });
    assert.deepEqual(await ledgerStats(harness().db, accountId, projectId, '/'), { leads: 3, contacts: 1 });
  });

  it('the time range bounds submitted_at: from inclusive, to exclusive', async () => {
    const { accountId, projectId, siteId } = await boundProject();
    const at = [hoursAgo(72), hoursAgo(48), hoursAgo(24)];
    for (const when of at) await submit(accountId, siteId, { at: when });
    const db = harness().db;
    assert.equal((await ledgerStats(db, accountId, projectId, '/', { from: at[1] }))?.leads, 2);
    assert.equal((await ledgerStats(db, accountId, projectId, '/', { to: at[1] }))?.leads, 1);
    assert.equal((await ledgerStats(db, accountId, projectId, '/', { from: at[0], to: at[2] }))?.leads, 2);
    assert.equal(await ledgerStats(db, accountId, projectId, '/', { from: new Date() }), undefined);
  });

  describe('the project a submission belongs to', () => {
    it("a delivery belongs to the account's oldest non-disabled binding of its site", async () => {
      const { accountId, projectId, siteId } = await boundProject();
      const disabled = await newProjectId(accountId);
      const newer = await newProjectId(accountId);
      await bind(accountId, disabled, siteId, 'disabled', hoursAgo(100));
      await bind(accountId, newer, siteId, 'override', new Date(Date.now() + 60_000));
      const id = await submit(accountId, siteId);
      assert.equal((await harness().db('form_submissions').where({ id }).first()).project_id, projectId);
      assert.equal(await ledgerStats(harness().db, accountId, newer, '/'), undefined);
    });

    it('a site bound to no project: the row has no project; a backfill for a project claims it', async () => {
      const { accountId, projectId } = await boundProject();
      const id = await submit(accountId, 'site_unbound', { email: 'early@example.test', at: hoursAgo(5) });
      assert.equal((await harness().db('form_submissions').where({ id }).first()).project_id, null);
      assert.equal(await ledgerStats(harness().db, accountId, projectId, '/'), undefined);
      const row = await harness().db('form_submissions').where({ id }).first();
      await recordPlatformSubmission(harness().db, accountId, {
        connectionId: row.raw_payload.connection_id,
        siteId: 'site_unbound',
        payload: row.raw_payload.payload,
        historical: true,
        projectId,
      });
      assert.equal((await harness().db('form_submissions').where({ id }).first()).project_id, projectId);
      assert.equal((await ledgerStats(harness().db, accountId, projectId, '/'))?.leads, 1);
    });

    it('a backfilled row belongs to the project the backfill ran for', async () => {
      const { accountId, siteId } = await boundProject();
      const other = await newProjectId(accountId);
      await submit(accountId, siteId, { historical: true, projectId: other });
      assert.equal((await ledgerStats(harness().db, accountId, other, '/'))?.leads, 1);
    });

    it('deleting the project keeps its rows in the ledger, without a project', async () => {
      const { accountId, projectId, siteId } = await boundProject();
      const id = await submit(accountId, siteId);
      await harness().db('projects').where({ id: projectId }).delete();
      const row = await harness().db('form_submissions').where({ id }).first();
      assert.deepEqual([row.account_id, row.project_id], [accountId, null]);
    });
  });
});
