import assert from 'node:assert/strict';
import { newAccount } from '../../helpers/accounts';
import { calendar, daysFromNow, insertItem, insertItems, LINK } from './fixtures';

describe('content calendar: cadence and limits', () => {
  it('cadence counts the whole account around now, whatever the window', async () => {
    const acct = await newAccount();
    const a = acct.accountId;
    const lastPublished = daysFromNow(-10);
    const nextScheduled = daysFromNow(5);
    await Promise.all([
      insertItem(a, { status: 'published', published_at: lastPublished }),
      insertItem(a, { status: 'published', published_at: daysFromNow(-40) }),
      insertItem(a, { status: 'published', published_at: daysFromNow(-100) }),
      insertItem(a, { cms_link: LINK, scheduled_publish_at: nextScheduled, schedule_executes: true }),
      insertItem(a, { cms_link: LINK, scheduled_publish_at: daysFromNow(1) }), // recorded only: no workflow holds it (stored before scheduling)
      insertItem(a, { scheduled_publish_at: daysFromNow(2) }), // recorded only: no site link
      insertItem(a, { cms_link: LINK, deploy_target: 'none', scheduled_publish_at: daysFromNow(3) }), // recorded only
      insertItem(a, { cms_link: LINK, scheduled_publish_at: daysFromNow(40), schedule_executes: true }),
      insertItem(a, { cms_link: LINK, publish_failed_at: daysFromNow(-3) }),
      insertItem(a, { cms_link: LINK, publish_failed_at: daysFromNow(-31) }),
    ]);
    const other = await newAccount('Other Co');
    await insertItem(other.accountId, { status: 'published', published_at: daysFromNow(-1) });

    const res = await calendar(acct.ownerToken, '?from=2001-01-01&to=2001-02-01');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.entries, []);
    const { as_of, ...counts } = res.body.cadence;
    assert.ok(Math.abs(Date.parse(as_of) - Date.now()) < 60_000);
    assert.deepEqual(counts, {
      published_last_30_days: 1,
      published_last_90_days: 2,
      published_per_week_last_90_days: 0.2, // 2 ÷ (90/7) = 0.16 → one decimal
      scheduled_next_30_days: 1,
      recorded_only_next_30_days: 3,
      failed_last_30_days: 1,
      last_published_at: lastPublished.toISOString(),
      next_scheduled_at: nextScheduled.toISOString(),
    });
  });

  it('an account with no content has zero counts and null dates', async () => {
    const acct = await newAccount();
    const res = await calendar(acct.ownerToken);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.entries, []);
    assert.equal(res.body.truncated, false);
    const { as_of: _asOf, ...counts } = res.body.cadence;
    assert.deepEqual(counts, {
      published_last_30_days: 0,
      published_last_90_days: 0,
      published_per_week_last_90_days: 0,
      scheduled_next_30_days: 0,
      recorded_only_next_30_days: 0,
      failed_last_30_days: 0,
      last_published_at: null,
      next_scheduled_at: null,
    });
  });

  it('a window with more than 1000 entries answers the oldest 1000 and truncated true', async () => {
    const acct = await newAccount();
    const base = Date.parse('2031-01-01T00:00:00Z');
    await insertItems(
      acct.accountId,
      Array.from({ length: 1001 }, (_, i) => ({ scheduled_publish_at: new Date(base + i * 60_000) })),
    );
    const res = await calendar(acct.ownerToken, '?from=2031-01-01&to=2031-01-02');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.entries.length, 1000);
    assert.equal(res.body.truncated, true);
    assert.equal(res.body.entries[999].date, new Date(base + 999 * 60_000).toISOString());
    const narrower = await calendar(acct.ownerToken, '?from=2031-01-01T00:01:00Z&to=2031-01-02');
    assert.equal(narrower.body.truncated, false);
  });
});
