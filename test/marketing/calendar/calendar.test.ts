import assert from 'node:assert/strict';
import { newAccount, newAgentKey, type TestAccount } from '../../helpers/accounts';
import { call } from '../../helpers/http';
import { calendar, DAY, daysFromNow, insertItem, LINK } from './fixtures';

type Entry = { content_id: string; kind: string; date: string; executes: boolean };

describe('content calendar: entries', () => {
  let acct: TestAccount;
  const ids: Record<string, string> = {};
  before(async () => {
    acct = await newAccount();
    const a = acct.accountId;
    // schedule_executes is what a write sets once the item's publish workflow accepted the date (the workflow itself
    // is the schedule tests' subject; here the calendar reads rows).
    ids.scheduled = await insertItem(a, {
      title: 'Linked',
      cms_link: LINK,
      scheduled_publish_at: daysFromNow(3),
      schedule_executes: true,
      content_type: 'case_study',
    });
    ids.unlinked = await insertItem(a, { title: 'Unlinked', scheduled_publish_at: daysFromNow(4) });
    ids.noTarget = await insertItem(a, {
      title: 'Deploy none',
      cms_link: LINK,
      deploy_target: 'none',
      scheduled_publish_at: daysFromNow(5),
    });
    ids.published = await insertItem(a, { title: 'Live', status: 'published', published_at: daysFromNow(-2), cms_link: LINK });
    ids.failed = await insertItem(a, {
      title: 'Broken',
      cms_link: LINK,
      publish_failed_at: daysFromNow(-1),
      scheduled_publish_at: daysFromNow(-1),
      schedule_executes: true,
    });
    // A linked date stored before scheduled publishing existed: no workflow ever held it, and it is past.
    ids.legacyPast = await insertItem(a, { title: 'Legacy', cms_link: LINK, scheduled_publish_at: daysFromNow(-6) });
    ids.legacyFuture = await insertItem(a, { title: 'Legacy ahead', cms_link: LINK, scheduled_publish_at: daysFromNow(6) });
    ids.oldPublished = await insertItem(a, { status: 'published', published_at: daysFromNow(-46) });
    ids.edgePublished = await insertItem(a, { status: 'published', published_at: daysFromNow(-44) });
    ids.farScheduled = await insertItem(a, { cms_link: LINK, scheduled_publish_at: daysFromNow(46), schedule_executes: true });
    ids.edgeScheduled = await insertItem(a, { cms_link: LINK, scheduled_publish_at: daysFromNow(44), schedule_executes: true });
    ids.undated = await insertItem(a, { title: 'No dates' });
  });

  const entriesOf = (body: { entries: Entry[] }, id: string) =>
    body.entries.filter((e) => e.content_id === id).map((e) => [e.kind, e.executes]);

  it('a date a publish workflow holds (schedule_executes) is a scheduled entry that executes', async () => {
    const res = await calendar(acct.ownerToken);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(entriesOf(res.body, ids.scheduled), [['scheduled', true]]);
  });

  it('a scheduled date that no workflow holds (no site link, deploy_target none, stored before scheduling) is recorded_only, executes false', async () => {
    const res = await calendar(acct.ownerToken);
    assert.deepEqual(entriesOf(res.body, ids.unlinked), [['recorded_only', false]]);
    assert.deepEqual(entriesOf(res.body, ids.noTarget), [['recorded_only', false]]);
    assert.deepEqual(entriesOf(res.body, ids.legacyPast), [['recorded_only', false]]);
    assert.deepEqual(entriesOf(res.body, ids.legacyFuture), [['recorded_only', false]]);
    assert.ok(res.body.entries.every((e: Entry) => e.executes === (e.kind !== 'recorded_only')));
  });

  it('published_at in the window gives a published entry, publish_failed_at a failed one; one item can give several', async () => {
    const res = await calendar(acct.ownerToken);
    assert.deepEqual(entriesOf(res.body, ids.published), [['published', true]]);
    assert.deepEqual(entriesOf(res.body, ids.failed).sort(), [
      ['failed', true],
      ['scheduled', true],
    ]);
    assert.deepEqual(entriesOf(res.body, ids.undated), []);
  });

  it('an entry carries content_id, title, kind, date, executes, status and content_type', async () => {
    const res = await calendar(acct.ownerToken);
    const entry = res.body.entries.find((e: Entry) => e.content_id === ids.scheduled);
    assert.deepEqual(Object.keys(entry).sort(), ['content_id', 'content_type', 'date', 'executes', 'kind', 'status', 'title']);
    assert.deepEqual([entry.title, entry.status, entry.content_type], ['Linked', 'draft', 'case_study']);
    assert.match(entry.date, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('entries are sorted by date, oldest first', async () => {
    const dates = (await calendar(acct.ownerToken)).body.entries.map((e: Entry) => e.date);
    assert.ok(dates.length >= 6);
    assert.deepEqual(dates, [...dates].sort());
  });

  it('without from and to the window is 45 days before now to 45 days after now', async () => {
    const res = await calendar(acct.ownerToken);
    assert.ok(Math.abs(Date.parse(res.body.from) - (Date.now() - 45 * DAY)) < 60_000, res.body.from);
    assert.ok(Math.abs(Date.parse(res.body.to) - (Date.now() + 45 * DAY)) < 60_000, res.body.to);
    const seen = new Set(res.body.entries.map((e: Entry) => e.content_id));
    assert.ok(seen.has(ids.edgePublished) && seen.has(ids.edgeScheduled));
    assert.ok(!seen.has(ids.oldPublished) && !seen.has(ids.farScheduled));
  });

  it('each absent bound takes its own default: from alone keeps to at 45 days after now', async () => {
    const from = daysFromNow(-60).toISOString();
    const res = await calendar(acct.ownerToken, `?from=${from}`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.from, from);
    assert.ok(Math.abs(Date.parse(res.body.to) - (Date.now() + 45 * DAY)) < 60_000);
    assert.ok(res.body.entries.some((e: Entry) => e.content_id === ids.oldPublished));
  });

  it('an item of another account never appears', async () => {
    const other = await newAccount('Other Co');
    await insertItem(other.accountId, { cms_link: LINK, scheduled_publish_at: daysFromNow(1) });
    const res = await calendar(other.ownerToken);
    assert.equal(res.body.entries.length, 1);
    const mine = await calendar(acct.ownerToken);
    assert.ok(mine.body.entries.every((e: Entry) => Object.values(ids).includes(e.content_id)));
  });

  it('the agent twin answers the same calendar with a marketing.content:read key; a key without it is 403', async () => {
    const key = await newAgentKey(acct.accountId, ['marketing.content:read'], true);
    const query = `?from=${daysFromNow(-30).toISOString()}&to=${daysFromNow(30).toISOString()}`;
    const [dashboard, agent] = await Promise.all([calendar(acct.ownerToken, query), calendar(key, query, true)]);
    assert.equal(agent.status, 200, agent.text);
    assert.deepEqual(agent.body.entries, dashboard.body.entries);
    const crmKey = await newAgentKey(acct.accountId, ['crm:read']);
    assert.equal((await calendar(crmKey, '', true)).status, 403);
  });

  it('the literal calendar path is not taken by the /content/{id} routes', async () => {
    const byId = await call('GET', '/api/marketing/content/00000000-0000-4000-8000-000000000000', { token: acct.ownerToken });
    assert.equal(byId.body?.code, 'content_not_found', 'the {id} route is mounted beside the calendar');
    const res = await calendar(acct.ownerToken);
    assert.equal(res.status, 200, res.text);
    assert.ok(Array.isArray(res.body.entries) && res.body.cadence, res.text);
  });
});

describe('content calendar: documentation', () => {
  it('/openapi.json documents both calendar routes with from, to and the window rules', async () => {
    const doc = (await call('GET', '/openapi.json')).body;
    for (const path of ['/api/marketing/content/calendar', '/api/agent/marketing/content/calendar']) {
      const op = doc.paths[path]?.get;
      assert.ok(op, `${path} is not documented`);
      assert.deepEqual(
        op.parameters
          .filter((p: { in: string }) => p.in === 'query')
          .map((p: { name: string }) => p.name)
          .sort(),
        ['from', 'to'],
      );
      assert.match(op.description, /190 days/);
      assert.match(op.description, /45 days/);
    }
  });
});
