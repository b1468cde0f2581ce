import assert from 'node:assert/strict';
import * as bundle from '../../workflows';
import { commerceComplianceSweepContract } from '../../workflows/commerceComplianceSweep.contract';
import { commerceDeliveryPurgeContract } from '../../workflows/commerceDeliveryPurge.contract';
import { commerceOrderBackfillContract } from '../../workflows/commerceOrderBackfill.contract';
import { commercePrivacyRequestContract } from '../../workflows/commercePrivacyRequest.contract';
import { commerceScopeDriftContract } from '../../workflows/commerceScopeDrift.contract';
import { commerceShopContract } from '../../workflows/commerceShop.contract';
import { commerceShopBackfillContract } from '../../workflows/commerceShopBackfill.contract';
import { commerceWebhookHealthContract } from '../../workflows/commerceWebhookHealth.contract';
import { commerceWebhookUrlReconcileContract } from '../../workflows/commerceWebhookUrlReconcile.contract';
import { aiTurnContract } from '../../workflows/aiTurn.contract';
import { alertEventDeliveryContract } from '../../workflows/alertEventDelivery.contract';
import { caseStudyContract } from '../../workflows/caseStudy.contract';
import { contentAnalyticsDailyContract } from '../../workflows/contentAnalyticsDaily.contract';
import { contentImagesContract } from '../../workflows/contentImages.contract';
import { contentPublishContract } from '../../workflows/contentPublish.contract';
import type { WorkflowContract, WorkflowOf } from '../../workflows/defineWorkflow';
import { emailBatchDeliveryContract } from '../../workflows/emailBatchDelivery.contract';
import { emailDeliveryContract } from '../../workflows/emailDelivery.contract';
import { emailEventDeliveryContract } from '../../workflows/emailEventDelivery.contract';
import { emailScheduledSendContract } from '../../workflows/emailScheduledSend.contract';
import { purgeIdempotencyKeysContract } from '../../workflows/purgeIdempotencyKeys.contract';
import { researchContract } from '../../workflows/research.contract';
import { jobsBulkContract } from '../../workflows/jobsBulk.contract';
import { sitePlatformEventRetentionContract } from '../../workflows/sitePlatformEventRetention.contract';
import { sitePlatformTokenHealthContract } from '../../workflows/sitePlatformTokenHealth.contract';
import { sitePlatformWebhookHealthContract } from '../../workflows/sitePlatformWebhookHealth.contract';
import { sitePlatformWebhookUrlReconcileContract } from '../../workflows/sitePlatformWebhookUrlReconcile.contract';
import { sitePlatformFormsBackfillContract } from '../../workflows/sitePlatformFormsBackfill.contract';
import { sitePlatformEventsContract } from '../../workflows/sitePlatformEvents.contract';

/** A workflow beside its contract: tsc refuses the pair when the workflow's arguments or result differ from it. */
const implementing = <C extends WorkflowContract>(contract: C, workflow: WorkflowOf<C>) => ({ contract, workflow: workflow as unknown });

const IMPLEMENTATIONS = [
  implementing(purgeIdempotencyKeysContract, bundle.purgeIdempotencyKeys),
  implementing(commerceShopContract, bundle.commerceShopWorkflow),
  implementing(commerceOrderBackfillContract, bundle.commerceOrderBackfill),
  implementing(commerceShopBackfillContract, bundle.commerceShopBackfill),
  implementing(commerceWebhookHealthContract, bundle.commerceWebhookHealth),
  implementing(commerceComplianceSweepContract, bundle.commerceComplianceSweep),
  implementing(commercePrivacyRequestContract, bundle.commercePrivacyRequest),
  implementing(commerceScopeDriftContract, bundle.commerceScopeDrift),
  implementing(commerceWebhookUrlReconcileContract, bundle.commerceWebhookUrlReconcile),
  implementing(commerceDeliveryPurgeContract, bundle.commerceDeliveryPurge),
  implementing(researchContract, bundle.research),
  implementing(jobsBulkContract, bundle.jobsBulk),
  implementing(emailEventDeliveryContract, bundle.emailEventDelivery),
  implementing(emailBatchDeliveryContract, bundle.emailBatchDelivery),
  implementing(emailDeliveryContract, bundle.emailDelivery),
  implementing(sitePlatformTokenHealthContract, bundle.sitePlatformTokenHealth),
  implementing(sitePlatformWebhookHealthContract, bundle.sitePlatformWebhookHealth),
  implementing(sitePlatformWebhookUrlReconcileContract, bundle.sitePlatformWebhookUrlReconcile),
  implementing(sitePlatformEventRetentionContract, bundle.sitePlatformEventRetention),
  implementing(sitePlatformFormsBackfillContract, bundle.sitePlatformFormsBackfill),
  implementing(sitePlatformEventsContract, bundle.sitePlatformEvents),
  implementing(contentPublishContract, bundle.contentPublish),
  implementing(contentImagesContract, bundle.contentImages),
  implementing(caseStudyContract, bundle.caseStudy),
  implementing(contentAnalyticsDailyContract, bundle.contentAnalyticsDaily),
  implementing(aiTurnContract, bundle.aiTurn),
  implementing(emailScheduledSendContract, bundle.emailScheduledSend),
  implementing(alertEventDeliveryContract, bundle.alertEventDelivery),
];

describe('workflow contracts', () => {
  it('a contract names the workflow type the worker bundle exports its workflow under', () => {
    for (const { contract, workflow } of IMPLEMENTATIONS) {
      assert.equal((bundle as Record<string, unknown>)[contract.workflowType], workflow, contract.workflowType);
    }
  });

  it('every workflow the worker bundle exports has a contract', () => {
    const contracted = IMPLEMENTATIONS.map(({ contract }) => contract.workflowType).sort();
    assert.deepEqual(Object.keys(bundle).sort(), contracted);
  });
});
