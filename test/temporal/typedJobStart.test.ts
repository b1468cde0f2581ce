import assert from 'node:assert/strict';
import type { TemporalDeps } from '../../src/deps';
import type { Metrics } from '../../src/http/metrics';
import { signalWithStartJob, startJob } from '../../src/temporal/jobs';
import { defineSchedule } from '../../src/temporal/schedules';
import { startAndWait } from '../../src/temporal/startAndWait';
import { commerceShopContract } from '../../workflows/commerceShop.contract';
import type { WorkflowOf } from '../../workflows/defineWorkflow';
import { emailBatchDeliveryContract } from '../../workflows/emailBatchDelivery.contract';
import { emailBatchDelivery } from '../../workflows/emailBatchDelivery';
import { purgeIdempotencyKeysContract } from '../../workflows/purgeIdempotencyKeys.contract';
import { researchContract, type ResearchInput, type ResearchResult } from '../../workflows/research.contract';

/**
 * Never called: `npx tsc --noEmit -p .` (CI's typecheck, which covers test/) checks these lines. Each
 * `@ts-expect-error` line must fail to compile; if a helper stopped checking its arguments, the directive would be
 * unused and the typecheck would fail.
 */
async function startsTheTypecheckRefuses(
  temporal: TemporalDeps,
  metrics: Metrics,
  deps: Parameters<typeof startAndWait>[0],
): Promise<void> {
  const research: ResearchInput = { accountId: 'a', contentId: null, topic: 't', keyword: null, maxSources: 5, requestId: 'r' };
  const base = { accountId: 'a', requestId: 'r' };

  await startJob(temporal, metrics, researchContract, { ...base, args: [research] });
  const retry = { initialIntervalMs: 1000, maxIntervalMs: 1000, expiresAt: '2026-12-01T00:00:00Z' };
  const batch = { accountId: 'a', keyId: 'k', batchId: 'b', perSecond: 1, quotaDay: null, retry };
  await startJob(temporal, metrics, emailBatchDeliveryContract, { ...base, args: [batch] });
  // @ts-expect-error research takes a ResearchInput, not an email batch's input
  await startJob(temporal, metrics, researchContract, { ...base, args: [batch] });
  // @ts-expect-error a field of the wrong type
  await startJob(temporal, metrics, researchContract, { ...base, args: [{ ...research, maxSources: '5' }] });
  // @ts-expect-error the input is required
  await startJob(temporal, metrics, emailBatchDeliveryContract, { ...base, args: [] });
  // @ts-expect-error the purge takes no argument
  await startJob(temporal, metrics, purgeIdempotencyKeysContract, { ...base, args: [{ limit: 1 }] });

  const outcome = await startAndWait(deps, researchContract, { ...base, args: [research] }, { waitSeconds: 1 });
  if (outcome.status === 'completed') {
    const result: ResearchResult = outcome.result;
    // @ts-expect-error the result is the contract's ResearchResult
    const wrong: number = outcome.result.claims;
    void result;
    void wrong;
  }
  // @ts-expect-error startAndWait checks the arguments too
  await startAndWait(deps, researchContract, { ...base, args: [{ topic: 't' }] }, { waitSeconds: 1 });

  const shop = {
    workflowId: 'w',
    accountId: 'a',
    args: [{ accountId: 'a', connectionId: 'c' }] as [{ accountId: string; connectionId: string }],
  };
  await signalWithStartJob(temporal, commerceShopContract, { ...shop, signal: 'deliveries', payload: { fromSeq: 1, count: 1 } });
  // @ts-expect-error the payload is the signal's
  await signalWithStartJob(temporal, commerceShopContract, { ...shop, signal: 'deliveries', payload: { ids: ['1'] } });
  // @ts-expect-error only a signal the contract names
  await signalWithStartJob(temporal, commerceShopContract, { ...shop, signal: 'progress', payload: {} });
  const researchRun = { workflowId: 'w', accountId: 'a', args: [research] as [ResearchInput] };
  // @ts-expect-error a workflow without signals cannot be signalled
  await signalWithStartJob(temporal, researchContract, { ...researchRun, signal: 'deliveries', payload: {} });

  const schedule = { name: 'n', cron: '* * * * *', overlap: 'SKIP' as const, description: 'd' };
  defineSchedule(purgeIdempotencyKeysContract, { ...schedule, args: [] });
  // @ts-expect-error a schedule's arguments are checked against its workflow
  defineSchedule(purgeIdempotencyKeysContract, { ...schedule, args: [{ limit: 1 }] });

  // @ts-expect-error a workflow implements its own contract, not another's (test/workflows/contracts.test.ts pairs them)
  const mismatched: WorkflowOf<typeof researchContract> = emailBatchDelivery;
  void mismatched;
}

describe('typed job starts', () => {
  it('a start with arguments its workflow does not take fails the typecheck', () => {
    // The proof is the typecheck of startsTheTypecheckRefuses above; here it only has to exist and never run.
    assert.equal(typeof startsTheTypecheckRefuses, 'function');
  });
});
