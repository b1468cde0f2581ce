import assert from 'node:assert/strict';
import { WorkflowFailedError } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure, CancelledFailure, RetryState, TerminatedFailure } from '@temporalio/common';
import { errorBody } from '../../src/http/errors';
import { sitePlatformErrors } from '../../src/clients/sitePlatform/errors';
import { toActivityFailure } from '../../src/temporal/activityFailure';
import { codedFailure } from '../../src/temporal/codedFailure';
import { jobFailureError, jobFailureOf } from '../../src/temporal/failures';
import { jobId, jobPath } from '../../src/temporal/jobIds';

const failed = (cause: Error) => new WorkflowFailedError('Workflow execution failed', cause, RetryState.NON_RETRYABLE_FAILURE);
const activityFailed = (cause: Error) =>
  new ActivityFailure('Activity task failed', 'sendEmail', '1', RetryState.NON_RETRYABLE_FAILURE, 'worker', cause);

describe('job failures', () => {
  it('a coded workflow failure keeps its code, message and status', () => {
    const failure = jobFailureOf(failed(codedFailure('quota_exceeded', 'monthly quota reached', { status: 429 })));
    assert.deepEqual(failure, { code: 'quota_exceeded', message: 'monthly quota reached', status: 429 });
  });

  it('a coded failure without a status answers 422', () => {
    assert.equal(jobFailureOf(failed(codedFailure('not_linked', 'link the item first'))).status, 422);
  });

  it('the innermost coded failure of an activity chain wins', () => {
    const inner = codedFailure('upstream_rejected', 'the platform refused the item', { status: 502 });
    const outer = ApplicationFailure.create({ type: 'publish_failed', message: 'publishing failed', cause: activityFailed(inner) });
    assert.deepEqual(jobFailureOf(failed(outer)), { code: 'upstream_rejected', message: 'the platform refused the item', status: 502 });
  });

  it('a failure without a stable code answers job_failed without its text', () => {
    const leaky = ApplicationFailure.create({ type: 'Error', message: 'connect ECONNREFUSED postgres://admin:hunter2@db' });
    const failure = jobFailureOf(failed(activityFailed(leaky)));
    assert.equal(failure.code, 'job_failed');
    assert.equal(failure.status, 500);
    assert.doesNotMatch(failure.message, /hunter2|ECONNREFUSED/);
  });

  it('an out-of-range status detail falls back to 422', () => {
    const failure = ApplicationFailure.create({ type: 'odd_status', message: 'x', details: [{ status: 200 }] });
    assert.equal(jobFailureOf(failed(failure)).status, 422);
  });

  it("a platform error thrown in an activity answers from the job as it was thrown: upstreamStatus, retry_after_seconds, errors and the platform's code survive", () => {
    const thrown = sitePlatformErrors.fromResponse('GET /v2/forms/f/submissions', 404, {
      code: 'resource_not_found',
      message: 'Form not found',
    });
    const refused = sitePlatformErrors.fromResponse('POST /v2/collections/c/items', 400, {
      code: 'validation_error',
      details: [{ param: 'fieldData.slug', description: 'required' }],
    });
    for (const err of [thrown, refused, sitePlatformErrors.rateLimitedRemotely('GET /v2/sites', 30)]) {
      const answered = jobFailureError(jobFailureOf(failed(activityFailed(toActivityFailure(err) as Error))));
      assert.deepEqual(errorBody(answered), errorBody(err), err.code);
    }
    assert.equal(errorBody(jobFailureError(jobFailureOf(failed(activityFailed(toActivityFailure(thrown) as Error))))).upstreamStatus, 404);
  });

  it('canceled and terminated runs map to their own codes', () => {
    assert.equal(jobFailureOf(failed(new CancelledFailure('Workflow canceled'))).code, 'job_canceled');
    assert.equal(jobFailureOf(failed(new TerminatedFailure('Workflow terminated'))).code, 'job_terminated');
  });

  it('codedFailure refuses a code that is not snake_case', () => {
    assert.throws(() => codedFailure('NotSnake', 'x'), TypeError);
  });
});

describe('job ids', () => {
  it('a given key makes the id deterministic and readable', () => {
    const account = '0b5c8a44-9c55-4c2e-9f7a-2d6f6f0b1a10';
    assert.equal(jobId('research', account, 'abc-123'), `research:${account}:abc-123`);
    assert.equal(jobId('research', account, 'abc-123'), jobId('research', account, 'abc-123'));
  });

  it('without a key every id is new', () => {
    assert.notEqual(jobId('research', 'a'), jobId('research', 'a'));
  });

  it('a key with unsafe characters is replaced by its hash, still deterministic', () => {
    const id = jobId('research', 'a', 'key with spaces/and?query');
    assert.match(id, /^research:a:~[A-Za-z0-9_-]{32}$/);
    assert.equal(id, jobId('research', 'a', 'key with spaces/and?query'));
  });

  it('a kind with capitals or spaces is refused', () => {
    assert.throws(() => jobId('Research Job', 'a'), TypeError);
    assert.equal(jobId('idempotency-key-purge', '_system', 'k'), 'idempotency-key-purge:_system:k');
  });

  it('job paths keep colons readable and escape the rest', () => {
    assert.equal(jobPath('k:a:~x/y'), '/api/jobs/k:a:~x%2Fy');
  });
});
