import assert from 'node:assert/strict';
import { newAccount } from '../helpers/accounts';
import { call, type CallResult } from '../helpers/http';
import { eventually, settled, startTestJob } from '../jobs/jobTestKit';

const BURST = 150;

const list = (token: string) => call('GET', '/api/jobs', { token });
const idsOf = (res: CallResult): string[] => (res.body?.data ?? []).map((job: { id: string }) => job.id).sort();

describe('the job list under a burst of readers', function () {
  this.timeout(120_000);

  it(`${BURST} concurrent GET /api/jobs through one API all answer 200 with the account's jobs; none answers 503`, async () => {
    const owner = await newAccount('Burst Co');
    const ids: string[] = [];
    for (const value of ['a', 'b', 'c']) {
      const started = await startTestJob(owner.ownerToken, 'quick', { value });
      assert.equal(started.status, 202, started.text);
      ids.push(started.body.id);
    }
    for (const id of ids) await settled(owner.ownerToken, id);
    await eventually(
      () => list(owner.ownerToken),
      (res) => res.status === 200 && res.body.data.length === ids.length,
      20_000,
      'the three jobs listed',
    );

    const answers = await Promise.all(Array.from({ length: BURST }, () => list(owner.ownerToken)));
    const statuses: Record<number, number> = {};
    for (const res of answers) statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    const refused = answers.find((res) => res.status !== 200);
    assert.deepEqual(statuses, { 200: BURST }, `answers by status: ${JSON.stringify(statuses)}; e.g. ${refused?.text}`);
    for (const res of answers) assert.deepEqual(idsOf(res), [...ids].sort());
  });
});
