import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Config } from '../../../src/config';
import { startModelSimulator, type ModelSimulator } from '../../../src/sandbox/model';
import { eventually } from '../../jobs/jobTestKit';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { startPrivateApp, type PrivateApp } from '../../helpers/privateApp';
import { startReplacementWorker, startWorkerChild, type WorkerChild } from '../../helpers/workerProcess';
import { finished, pollUntil } from './turnKit';

describe('a stale turn: its worker killed mid-turn, then recovered on another', function () {
  this.timeout(120_000);
  let model: ModelSimulator;
  let app: PrivateApp;
  let child: WorkerChild | undefined;
  let replacement: { stop(): Promise<void> } | undefined;
  let owner: TestAccount;
  const taskQueue = `ai-stale-${randomBytes(4).toString('hex')}`;
  let config: Partial<Config>;

  before(async () => {
    model = await startModelSimulator();
    config = { MODEL_API_URL: model.url, MODEL_API_KEY: model.apiKey };
    app = await startPrivateApp([], { config: { ...config, AI_TURN_WAIT_SECONDS: 0.2, AI_TURN_STALE_SECONDS: 2 }, taskQueue });
    owner = await newAccount('Stale Co');
  });
  after(async () => {
    await child?.kill();
    await replacement?.stop();
    await app?.close();
    await model?.stop();
  });

  it('stale: true once the killed worker stops making progress; false again when another worker finishes the turn', async () => {
    child = await startWorkerChild(taskQueue, config);
    model.delayMs = 6_000;
    const res = await app.call('POST', '/api/agent/marketing/ai/turns', { token: owner.agentKey, body: { message: 'slow thoughts' } });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.stale, false);
    await eventually(
      async () => model.calls,
      (n) => n >= 1,
      30_000,
      'the model call',
    );
    await child.kill();

    const stale = await pollUntil(app, owner.agentKey, res.body.turn_id, (r) => r.body.stale === true, 20_000);
    assert.equal(stale.body.status, 'running');

    model.delayMs = 0;
    replacement = await startReplacementWorker(taskQueue, config);
    const done = await pollUntil(app, owner.agentKey, res.body.turn_id, finished, 60_000);
    assert.equal(done.body.status, 'completed');
    assert.equal(done.body.stale, false);
    assert.equal(done.body.response, 'You said: slow thoughts');
  });
});
