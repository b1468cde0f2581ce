import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { harness } from '../helpers/harness';

/**
 * Histories of the sweeps recorded as each ran before it moved onto the generic sweep loop (workflows/sweep.ts):
 * multi-page runs that continued as new, runs with an activity that failed for good, runs out of budget, runs with
 * nothing configured. Named `<workflowType>.<case>[.<run>].json`; each is the protobuf object form of the history
 * (`History.toObject` with longs, enums and bytes as strings), which `History.fromObject` reads back.
 */
const HISTORIES = path.join(__dirname, 'histories');

const SWEEPS = [
  'commerceComplianceSweep',
  'commerceDeliveryPurge',
  'commerceScopeDrift',
  'commerceWebhookHealth',
  'commerceWebhookUrlReconcile',
  'sitePlatformEventRetention',
  'sitePlatformTokenHealth',
  'sitePlatformWebhookHealth',
  'sitePlatformWebhookUrlReconcile',
];

describe('sweep histories', () => {
  it('runs recorded before the generic sweep loop replay with the current bundle, continue-as-new included', async () => {
    const files = (await readdir(HISTORIES)).filter((f) => f.endsWith('.json')).sort();
    const histories = await Promise.all(
      files.map(async (file) => ({
        workflowId: file,
        history: temporal.api.history.v1.History.fromObject(JSON.parse(await readFile(path.join(HISTORIES, file), 'utf8'))),
      })),
    );
    const typeOf = (h: (typeof histories)[number]) => h.history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name;
    for (const h of histories) assert.equal(typeOf(h), h.workflowId.split('.')[0], h.workflowId);
    assert.deepEqual([...new Set(histories.map(typeOf))].sort(), SWEEPS);
    const continued = histories.filter((h) => h.history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes);
    assert.ok(continued.length >= 5, 'the continuing sweeps each recorded a continue-as-new');

    let replayed = 0;
    for await (const result of Worker.runReplayHistories({ workflowBundle: harness().bundle }, histories)) {
      assert.equal(result.error, undefined, `replay of ${result.workflowId} diverged: ${String(result.error)}`);
      replayed++;
    }
    assert.equal(replayed, files.length);
  });
});
