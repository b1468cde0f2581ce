import assert from 'node:assert/strict';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { calendar, insertItem, LINK } from './fixtures';

const q = (from?: string, to?: string) => `?${new URLSearchParams({ ...(from ? { from } : {}), ...(to ? { to } : {}) })}`;

describe('content calendar: window', () => {
  let acct: TestAccount;
  let start: string;
  let lastEvening: string;
  let nextDay: string;
  let dayBefore: string;
  before(async () => {
    acct = await newAccount();
    const at = (iso: string) => insertItem(acct.accountId, { cms_link: LINK, scheduled_publish_at: iso });
    [start, lastEvening, nextDay, dayBefore] = await Promise.all([
      at('2030-03-01T00:00:00Z'),
      at('2030-03-31T23:59:00Z'),
      at('2030-04-01T00:00:00Z'),
      at('2030-02-28T23:59:59Z'),
    ]);
  });

  it('a date alone is a UTC day: from is its start, to includes all of its last day', async () => {
    const res = await calendar(acct.ownerToken, q('2030-03-01', '2030-03-31'));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.from, res.body.to], ['2030-03-01T00:00:00.000Z', '2030-03-31T23:59:59.999Z']);
    const seen = res.body.entries.map((e: { content_id: string }) => e.content_id);
    assert.deepEqual(seen, [start, lastEvening]);
    assert.ok(!seen.includes(nextDay) && !seen.includes(dayBefore));
  });

  it('ISO 8601 timestamps with an offset are read as instants', async () => {
    const res = await calendar(acct.ownerToken, q('2030-03-01T02:00:00+02:00', '2030-03-01T12:30:00.5Z'));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.from, res.body.to], ['2030-03-01T00:00:00.000Z', '2030-03-01T12:30:00.500Z']);
    assert.deepEqual(
      res.body.entries.map((e: { content_id: string }) => e.content_id),
      [start],
    );
  });

  it('an invalid date in from or to is 400 validation_failed naming it', async () => {
    for (const bad of ['2030-02-30', 'tomorrow', '2030-03-01T09:00:00', '03/01/2030', '2030-3-1', '1900000000000', '']) {
      for (const [name, query] of [
        ['from', q(bad || ' ', '2030-04-01')],
        ['to', q('2030-03-01', bad || ' ')],
      ] as const) {
        const res = await calendar(acct.ownerToken, query);
        assert.equal(res.status, 400, `${name}=${bad}: ${res.text}`);
        assert.equal(res.body.code, 'validation_failed');
        assert.ok(
          res.body.errors.some((e: { path: string }) => e.path === `query.${name}`),
          res.text,
        );
      }
    }
  });

  it('a window over 190 days is 400 calendar_window_too_large', async () => {
    for (const [from, to] of [
      ['2030-01-01', '2030-07-10'],
      ['2030-01-01T00:00:00Z', '2030-07-10T00:00:00.001Z'],
    ]) {
      const res = await calendar(acct.ownerToken, q(from, to));
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, 'calendar_window_too_large');
    }
  });

  it('a window of exactly 190 days is allowed (190 calendar days by date, or 190 × 24 h by timestamp)', async () => {
    assert.equal((await calendar(acct.ownerToken, q('2030-01-01', '2030-07-09'))).status, 200);
    assert.equal((await calendar(acct.ownerToken, q('2030-01-01T00:00:00Z', '2030-07-10T00:00:00Z'))).status, 200);
  });

  it('a default bound counts toward the 190 days: a from over 145 days ago alone is too large', async () => {
    const from = new Date(Date.now() - 150 * 86_400_000).toISOString();
    const res = await calendar(acct.ownerToken, q(from));
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'calendar_window_too_large');
  });

  it('to before from is 400 calendar_window_invalid; to equal to from is a window of one instant, not an error', async () => {
    const res = await calendar(acct.ownerToken, q('2030-03-02', '2030-03-01'));
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'calendar_window_invalid');
    const same = await calendar(acct.ownerToken, q('2030-03-01T00:00:00Z', '2030-03-01T00:00:00Z'));
    assert.equal(same.status, 200, same.text);
    assert.deepEqual(
      same.body.entries.map((e: { content_id: string }) => e.content_id),
      [start],
    );
  });

  it('an unknown query parameter is 400', async () => {
    const res = await calendar(acct.ownerToken, '?fromm=2030-01-01');
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'validation_failed');
  });
});
