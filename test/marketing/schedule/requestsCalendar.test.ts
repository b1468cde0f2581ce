import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import { hoursAhead, requestsOf, useRequestWorld, type RequestWorld } from './requestsKit';

type Entry = { content_id: string; kind: string; executes: boolean };

describe('calendar truth: executes is true exactly while a workflow holds the date', () => {
  let rw: RequestWorld;
  let r: ReturnType<typeof requestsOf>;
  useRequestWorld((world, requests) => {
    rw = world;
    r = requests;
  });

  const entriesOf = async (id: string) =>
    ((await r.calendar()).entries as Entry[]).filter((e) => e.content_id === id).map((e) => [e.kind, e.executes]);

  it('held → scheduled, executes true; deploy_target none → recorded_only; re-armed → scheduled; cancelled → no entry', async () => {
    const item = await r.create({ cms_link: r.link(rw.nativeProjectId) });
    await r.patch(item.id, { scheduled_publish_at: hoursAhead(5) });
    assert.deepEqual(await entriesOf(item.id), [['scheduled', true]]);
    const cadence = (await r.calendar()).cadence;
    assert.equal(cadence.scheduled_next_30_days, 1);

    await r.patch(item.id, { deploy_target: 'none' });
    assert.deepEqual(await entriesOf(item.id), [['recorded_only', false]]);
    assert.equal((await r.calendar()).cadence.scheduled_next_30_days, 0);

    await r.patch(item.id, { deploy_target: 'production' });
    assert.deepEqual(await entriesOf(item.id), [['scheduled', true]]);

    await r.patch(item.id, { cancel_scheduled_publish: true });
    assert.deepEqual(await entriesOf(item.id), []);
  });

  it('an unlinked item keeps its date recorded only', async () => {
    const item = await r.create({ cms_link: r.link(rw.nativeProjectId) });
    await r.patch(item.id, { scheduled_publish_at: hoursAhead(5) });
    await r.patch(item.id, { cms_link: null });
    assert.deepEqual(await entriesOf(item.id), [['recorded_only', false]]);
  });

  it('a date stored before scheduled publishing existed (no workflow, schedule_executes false) shows executes false, past or future', async () => {
    const rows = await harness()
      .db('content_items')
      .insert(
        [-26, 26].map((h) => ({
          account_id: rw.t.account.accountId,
          title: `Legacy ${h}`,
          cms_link: JSON.stringify({ project_id: rw.nativeProjectId, collection_id: rw.collectionId, item_id: null }),
          scheduled_publish_at: new Date(Date.now() + h * 3_600_000),
        })),
      )
      .returning('id');
    for (const { id } of rows) assert.deepEqual(await entriesOf(id), [['recorded_only', false]]);
  });
});
