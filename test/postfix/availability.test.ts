import assert from 'node:assert/strict';
import { postfixGate } from './lib/availability';
import { parsePostqueueJson } from './lib/queue';

describe('the Postfix suite’s gate (test/postfix/lib/availability.ts)', () => {
  const missing = { ok: false as const, reason: 'no postfix binary on PATH' };
  const present = {
    ok: true as const,
    version: '3.7.11',
    binaries: { postfix: '/usr/sbin/postfix', postconf: '/usr/sbin/postconf', postqueue: '/usr/sbin/postqueue' },
  };

  it('without Postfix the suite is skipped, saying why', () => {
    assert.deepEqual(postfixGate(missing, {}), { run: false, skip: 'Postfix suite skipped: no postfix binary on PATH' });
  });

  it('under CI=true a missing Postfix fails the suite instead of skipping it', () => {
    const gate = postfixGate(missing, { CI: 'true' });
    assert.equal(gate.run, false);
    assert.ok('fail' in gate && gate.fail.includes('no postfix binary on PATH'), JSON.stringify(gate));
  });

  it('with Postfix the suite runs, in CI or not', () => {
    assert.equal(postfixGate(present, { CI: 'true' }).run, true);
    assert.equal(postfixGate(present, {}).run, true);
  });
});

describe('postqueue -j output (test/postfix/lib/queue.ts)', () => {
  it('lists each queued message with its queue, sender and recipients, with the delay reason when there is one', () => {
    const output = [
      '{"queue_name": "deferred", "queue_id": "4E1F79881C8", "arrival_time": 1, "message_size": 449, "forced_expire": false, "sender": "a@b.test", "recipients": [{"address": "x@slow.workyard.test", "delay_reason": "try again later"}]}',
      '{"queue_name": "active", "queue_id": "5620A9881C9", "arrival_time": 2, "message_size": 300, "forced_expire": false, "sender": "", "recipients": [{"address": "y@late.workyard.test"}]}',
      '',
    ].join('\n');
    assert.deepEqual(parsePostqueueJson(output), [
      {
        id: '4E1F79881C8',
        queue: 'deferred',
        sender: 'a@b.test',
        recipients: [{ address: 'x@slow.workyard.test', reason: 'try again later' }],
      },
      { id: '5620A9881C9', queue: 'active', sender: '', recipients: [{ address: 'y@late.workyard.test' }] },
    ]);
    assert.deepEqual(parsePostqueueJson(''), []);
  });
});
