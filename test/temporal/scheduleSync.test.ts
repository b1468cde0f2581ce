import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ScheduleNotFoundError } from '@temporalio/client';
import { scheduleIdOf, syncSchedules } from '../../src/temporal/scheduleSync';
import { SCHEDULES } from '../../src/app/schedules';
import { defineSchedule, type ScheduleEntry } from '../../src/temporal/schedules';
import { isJobKind } from '../../src/temporal/jobIds';
import { AccountIdKey, JobKindKey, SYSTEM_ACCOUNT } from '../../src/temporal/searchAttributes';
import { harness } from '../helpers/harness';
import { eventually } from '../jobs/jobTestKit';
import { quickJobContract } from '../workflows/quickJob.contract';

const suffix = randomBytes(3).toString('hex');
const entry = (name: string, cron = '0 4 1 1 *'): ScheduleEntry =>
  defineSchedule(quickJobContract, {
    name: `test-${name}-${suffix}`,
    cron,
    args: [{ value: name }],
    overlap: 'SKIP',
    description: `test ${name}`,
  });

async function exists(id: string): Promise<boolean> {
  try {
    await harness().client.schedule.getHandle(id).describe();
    return true;
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return false;
    throw err;
  }
}

/** The schedule list is eventually consistent: wait until it shows every id (a sync's deletion pass reads it). */
async function listed(ids: string[]): Promise<void> {
  await eventually(
    async () => {
      const seen = new Set<string>();
      for await (const s of harness().client.schedule.list()) seen.add(s.scheduleId);
      return ids.every((id) => seen.has(id));
    },
    (ok) => ok,
    10_000,
    `schedules ${ids.join(', ')} listed`,
  );
}

describe('schedule sync', () => {
  const foreignId = `foreign-${suffix}`;
  const a = entry('a');
  const b = entry('b');
  const sync = (table: ScheduleEntry[]) => syncSchedules(harness().client, table, harness().taskQueue);

  before(async () => {
    await harness().client.schedule.create({
      scheduleId: foreignId,
      spec: { cronExpressions: ['0 5 1 1 *'] },
      state: { paused: true },
      action: { type: 'startWorkflow', workflowType: 'quickJobWorkflow', args: [{ value: 'foreign' }], taskQueue: harness().taskQueue },
    });
  });

  after(async () => {
    await sync([]); // removes every workyard: schedule this file made
    await harness()
      .client.schedule.getHandle(foreignId)
      .delete()
      .catch(() => undefined);
  });

  it('creates missing schedules, and a second run reports everything unchanged', async () => {
    const first = await sync([a, b]);
    assert.deepEqual(first.created.sort(), [a.name, b.name].sort());
    assert.deepEqual(first.updated, []);
    const second = await sync([a, b]);
    assert.deepEqual(second, { created: [], updated: [], deleted: [], unchanged: [a.name, b.name] });
  });

  it('each schedule carries its description as its note', async () => {
    for (const e of [a, b]) {
      const described = await harness().client.schedule.getHandle(scheduleIdOf(e.name)).describe();
      assert.equal(described.state.note, e.description, e.name);
    }
  });

  it('an update writes a changed description into the note of a running schedule', async () => {
    const described = { ...b, description: `test b, described again` };
    assert.deepEqual((await sync([a, described])).updated, [b.name]);
    assert.equal((await harness().client.schedule.getHandle(scheduleIdOf(b.name)).describe()).state.note, described.description);
    assert.deepEqual((await sync([a, b])).updated, [b.name]);
  });

  it('a schedule runs its workflow on the task queue with AccountId _system and JobKind <name>, in UTC', async () => {
    const handle = harness().client.schedule.getHandle(scheduleIdOf(a.name));
    const described = await handle.describe();
    assert.equal(described.spec.timezone, 'UTC');
    assert.equal(described.action.workflowType, 'quickJobWorkflow');
    assert.equal(described.action.taskQueue, harness().taskQueue);
    assert.deepEqual(described.action.args, [{ value: 'a' }]);
    assert.equal(described.policies.overlap, 'SKIP');
    await handle.trigger();
    const withRun = await eventually(
      () => handle.describe(),
      (d) => d.info.recentActions.length > 0,
      10_000,
      'a triggered run',
    );
    const run = await harness().client.workflow.getHandle(withRun.info.recentActions[0].action.workflow.workflowId).describe();
    assert.equal(run.typedSearchAttributes.get(AccountIdKey), SYSTEM_ACCOUNT);
    assert.equal(run.typedSearchAttributes.get(JobKindKey), a.name);
    assert.match(run.workflowId, new RegExp(`^cron:${a.name}-`));
  });

  it('a changed cron updates the schedule, then it is unchanged again', async () => {
    const changed = { ...a, cron: '30 6 * * 1' };
    const result = await sync([changed, b]);
    assert.deepEqual(result.updated, [a.name]);
    assert.deepEqual(result.unchanged, [b.name]);
    const spec = (await harness().client.schedule.getHandle(scheduleIdOf(a.name)).describe()).spec;
    assert.deepEqual(spec.calendars?.[0].minute, [{ start: 30, end: 30, step: 1 }]);
    assert.deepEqual(spec.calendars?.[0].dayOfWeek, [{ start: 'MONDAY', end: 'MONDAY', step: 1 }]);
    assert.deepEqual((await sync([changed, b])).unchanged.sort(), [a.name, b.name].sort());
    Object.assign(a, changed);
  });

  it('a changed overlap policy or argument, and a hand edit of the task queue, are updated', async () => {
    assert.deepEqual((await sync([{ ...a, overlap: 'BUFFER_ONE' }, b])).updated, [a.name]);
    assert.deepEqual((await sync([a, { ...b, args: [{ value: 'b2' }] }])).updated.sort(), [a.name, b.name].sort());
    await harness()
      .client.schedule.getHandle(scheduleIdOf(a.name))
      .update((previous) => ({ ...previous, action: { ...previous.action, taskQueue: 'elsewhere' } }));
    assert.deepEqual((await sync([a, { ...b, args: [{ value: 'b2' }] }])).updated, [a.name]);
    assert.equal((await harness().client.schedule.getHandle(scheduleIdOf(a.name)).describe()).action.taskQueue, harness().taskQueue);
  });

  it("an update keeps an operator's pause", async () => {
    const handle = harness().client.schedule.getHandle(scheduleIdOf(a.name));
    await handle.pause('maintenance');
    await sync([{ ...a, cron: '15 6 * * 1' }, b]);
    const state = (await handle.describe()).state;
    assert.equal(state.paused, true);
    assert.equal(state.note, 'maintenance');
    Object.assign(a, { cron: '15 6 * * 1' });
  });

  it('a schedule removed from the table is deleted; a schedule without the prefix is left alone', async () => {
    await listed([scheduleIdOf(a.name), scheduleIdOf(b.name), foreignId]);
    const result = await sync([a]);
    assert.deepEqual(result.deleted, [b.name]);
    assert.equal(await exists(scheduleIdOf(b.name)), false);
    assert.equal(await exists(scheduleIdOf(a.name)), true);
    assert.equal(await exists(foreignId), true);
    const again = await sync([a]);
    assert.deepEqual(again.deleted, []);
  });

  it('every schedule of the product table has a name the sync accepts, once', () => {
    for (const { name } of SCHEDULES) assert.ok(isJobKind(name), name);
    assert.equal(new Set(SCHEDULES.map((s) => s.name)).size, SCHEDULES.length);
  });

  it('a table with a bad or repeated name is refused before anything changes', async () => {
    await assert.rejects(sync([{ ...a, name: 'Not Snake' }]), TypeError);
    await assert.rejects(sync([a, a]), TypeError);
    assert.equal(await exists(scheduleIdOf(a.name)), true);
  });
});
