import assert from 'node:assert/strict';
import { Worker } from '@temporalio/worker';
import { harness } from '../../helpers/harness';
import { auditRows } from '../../sitePlatform/operations/fixtures';
import {
  arm,
  inSeconds,
  itemRow,
  newLinkedItem,
  publishCalls,
  resultOf,
  startPublishWorker,
  startPublishWorld,
  type PublishWorld,
} from './workflowKit';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('content-publish workflow: a worker killed before the time', function () {
  this.timeout(60_000);
  let pw: PublishWorld;
  before(async () => {
    pw = await startPublishWorld();
  });
  after(async () => {
    await pw?.close();
  });

  it('a worker stopped mid-wait and a new one started: the item is published exactly once after the restart', async () => {
    const first = await startPublishWorker(pw.config);
    const id = await newLinkedItem(pw);
    const mark = publishCalls(pw).length;
    const at = inSeconds(4);
    const armed = await arm(pw, id, at, { taskQueue: first.taskQueue });
    await sleep(1_000);
    await first.stop();
    await sleep(4_000);
    assert.equal((await itemRow(id)).status, 'draft', 'no worker, no publish');

    const second = await startPublishWorker(pw.config, first.taskQueue);
    try {
      const result = await resultOf(armed, 30_000);
      assert.equal(result.outcome, 'published');
      assert.equal(result.at, at.toISOString());
      assert.equal(publishCalls(pw).length - mark, 1, 'one cms_item_publish request');
      const audits = (await auditRows(pw.t.account.accountId)).filter(
        (a) => a.action === 'platform.cms_item_publish' && a.actor.startsWith(`workflow:${armed.workflowId}:`),
      );
      assert.equal(audits.length, 1, 'one audit row');
      const row = await itemRow(id);
      assert.equal(row.status, 'published');
      assert.equal(row.scheduled_publish_at, null);
      await Worker.runReplayHistory({ workflowBundle: harness().bundle }, await armed.handle.fetchHistory(), armed.workflowId);
    } finally {
      await second.stop();
    }
  });
});
