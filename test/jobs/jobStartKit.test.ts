import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { jobWait } from '../../src/jobs/start/wait';
import { newAccount, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { call, type CallResult } from '../helpers/http';
import { startPrivateApp, type PrivateApp } from '../helpers/privateApp';
import { createContact, stageOfKind } from '../crm/fixtures';
import { getJob, settled } from './jobTestKit';

// The kit is driven through a real route that starts a job and waits for it: the case-study draft, whose run finishes
// in about a second on the test worker (no chat model: the template writes it).

const suffix = () => randomBytes(3).toString('hex');

async function wonDeal(token: string): Promise<string> {
  const contact = await createContact(token, { company: 'Northwind Heating' });
  const stage = await stageOfKind(token, 'won');
  const res = await call('POST', '/api/crm/deals', {
    token,
    body: { title: 'Retrofit programme', currency: 'EUR', amount: 4_800_000, contactId: contact.id, stageId: stage.id },
  });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

function draft(token: string, body: Record<string, unknown>, headers: Record<string, string> = {}, app?: PrivateApp): Promise<CallResult> {
  return (app?.call ?? call)('POST', '/api/marketing/content/case-study', { token, body, headers });
}

describe('job-start kit: Prefer, Preference-Applied and Idempotency-Key on a start-and-wait route', function () {
  this.timeout(60_000);
  let owner: TestAccount;

  before(async () => {
    owner = await newAccount('Job Start Kit Co');
  });

  it('Prefer: wait=0 answers 202 with the job and its Location at once', async () => {
    const res = await draft(owner.ownerToken, { deal_id: await wonDeal(owner.ownerToken) }, { Prefer: 'wait=0' });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.kind, 'case-study');
    assert.equal(res.headers.get('location'), `/api/jobs/${res.body.id}`);
    assert.equal(res.headers.get('preference-applied'), 'wait=0');
    const done = await settled(owner.ownerToken, res.body.id, 30_000);
    assert.equal(done.body.status, 'completed', done.text);
  });

  it('Prefer: respond-async answers 202 with the job and its Location at once, even when the run already finished', async () => {
    const dealId = await wonDeal(owner.ownerToken);
    const key = `async-${suffix()}`;
    const fresh = await draft(owner.ownerToken, { deal_id: dealId }, { Prefer: 'respond-async', 'Idempotency-Key': key });
    assert.equal(fresh.status, 202, fresh.text);
    assert.equal(fresh.headers.get('location'), `/api/jobs/${fresh.body.id}`);
    assert.equal(fresh.headers.get('preference-applied'), 'respond-async');
    await settled(owner.ownerToken, fresh.body.id, 30_000);

    // The same request again attaches to the finished run, and is still answered at once with the job.
    const again = await draft(owner.ownerToken, { deal_id: dealId }, { Prefer: 'respond-async', 'Idempotency-Key': key });
    assert.equal(again.status, 202, again.text);
    assert.equal(again.body.id, fresh.body.id);
    assert.equal(again.body.status, 'completed');
    assert.equal(again.body.result.content_type, 'case_study');
    assert.equal(again.headers.get('preference-applied'), 'respond-async');
  });

  it("Prefer: wait=N above the route's maximum wait is clamped to it", async () => {
    const max = harness().deps.config.CASE_STUDY_WAIT_SECONDS;
    const res = await draft(owner.ownerToken, { deal_id: await wonDeal(owner.ownerToken) }, { Prefer: `wait=${max + 100_000}` });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.headers.get('preference-applied'), `wait=${max}`);

    // A route whose bound is 0 answers 202 at once however long the client would wait.
    const noWait = await startPrivateApp([], { config: { CASE_STUDY_WAIT_SECONDS: 0 } });
    try {
      const started = Date.now();
      const cut = await draft(owner.ownerToken, { deal_id: await wonDeal(owner.ownerToken) }, { Prefer: 'wait=30' }, noWait);
      assert.equal(cut.status, 202, cut.text);
      assert.ok(Date.now() - started < 10_000, 'answered without waiting 30 s');
      assert.equal(cut.headers.get('preference-applied'), 'wait=0');
      assert.equal(cut.headers.get('location'), `/api/jobs/${cut.body.id}`);
      await settled(owner.ownerToken, cut.body.id, 30_000);
    } finally {
      await noWait.close();
    }
  });

  it('the same Idempotency-Key with the same body attaches to the existing run', async () => {
    const dealId = await wonDeal(owner.ownerToken);
    const key = `same-${suffix()}`;
    const first = await draft(owner.ownerToken, { deal_id: dealId, tags: ['kit'] }, { Prefer: 'respond-async', 'Idempotency-Key': key });
    assert.equal(first.status, 202, first.text);
    assert.equal(first.body.id, `case-study:${owner.accountId}:${dealId}:${key}`);

    const attached = await draft(owner.ownerToken, { deal_id: dealId, tags: ['kit'] }, { Prefer: 'wait=0', 'Idempotency-Key': key });
    assert.equal(attached.status, 202, attached.text);
    assert.equal(attached.body.id, first.body.id);

    const finished = await draft(owner.ownerToken, { deal_id: dealId, tags: ['kit'] }, { 'Idempotency-Key': key });
    assert.equal(finished.status, 201, finished.text);
    const job = await getJob(owner.ownerToken, first.body.id);
    assert.equal(job.body.result.id, finished.body.id, 'the one run answered every retry');
  });

  it('the same Idempotency-Key with another body is refused: 409 idempotency_key_reused, nothing runs', async () => {
    const dealId = await wonDeal(owner.ownerToken);
    const key = `other-${suffix()}`;
    const first = await draft(owner.ownerToken, { deal_id: dealId }, { 'Idempotency-Key': key });
    assert.equal(first.status, 201, first.text);
    const runId = (await getJob(owner.ownerToken, `case-study:${owner.accountId}:${dealId}:${key}`)).body.run_id;

    for (const prefer of [undefined, 'respond-async']) {
      const other = await draft(
        owner.ownerToken,
        { deal_id: dealId, tags: ['other'] },
        { 'Idempotency-Key': key, ...(prefer ? { Prefer: prefer } : {}) },
      );
      assert.equal(other.status, 409, other.text);
      assert.equal(other.body.code, 'idempotency_key_reused');
      assert.equal(other.headers.get('preference-applied'), null);
    }
    const job = await getJob(owner.ownerToken, `case-study:${owner.accountId}:${dealId}:${key}`);
    assert.equal(job.body.run_id, runId, 'no other run under the key');
    assert.deepEqual(job.body.tags, []);
  });

  it('Preference-Applied names the honoured preference, and is absent without Prefer or for an invalid one (never a 400)', async () => {
    const honoured = await draft(owner.ownerToken, { deal_id: await wonDeal(owner.ownerToken) }, { Prefer: 'respond-async, wait=60' });
    assert.equal(honoured.status, 201, honoured.text);
    assert.equal(honoured.headers.get('preference-applied'), 'wait=60', 'respond-async is not applied to a finished answer');

    for (const prefer of [undefined, 'wait=soon', 'wait=-1', 'wait', 'return=minimal']) {
      const res = await draft(owner.ownerToken, { deal_id: await wonDeal(owner.ownerToken) }, prefer ? { Prefer: prefer } : {});
      assert.equal(res.status, 201, `${prefer}: ${res.text}`);
      assert.equal(res.headers.get('preference-applied'), null, String(prefer));
    }
  });

  describe('reading Prefer (RFC 7240)', () => {
    it('names are case-insensitive, values may be quoted, parameters are skipped, and the first instance counts', () => {
      assert.deepEqual(jobWait('WAIT="5"; foo=bar, wait=1', 30), { seconds: 5, atOnce: false, waitPreferred: true, respondAsync: false });
      assert.deepEqual(jobWait('Respond-Async', 30), { seconds: 0, atOnce: true, waitPreferred: false, respondAsync: true });
    });

    it('without a valid preference the wait is the route maximum; respond-async with a value is not respond-async', () => {
      for (const prefer of [undefined, '', 'wait=1.5', 'wait=abc', 'respond-async=yes', 'handling=lenient'])
        assert.deepEqual(jobWait(prefer, 30), { seconds: 30, atOnce: false, waitPreferred: false, respondAsync: false }, String(prefer));
    });

    it('respond-async with wait=N waits up to N seconds, within the route maximum', () => {
      assert.deepEqual(jobWait('respond-async, wait=10', 30), { seconds: 10, atOnce: false, waitPreferred: true, respondAsync: true });
      assert.deepEqual(jobWait('respond-async, wait=100', 30), { seconds: 30, atOnce: false, waitPreferred: true, respondAsync: true });
    });
  });
});
