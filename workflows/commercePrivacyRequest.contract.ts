import type { PrivacyFulfilment } from '../src/commerce/privacy/service';
import { defineWorkflow } from './defineWorkflow';

/** The contract of a privacy request's fulfilment (commercePrivacyRequest.ts). No I/O. */

export interface PrivacyRequestInput {
  accountId: string;
  requestId: string;
  connectionId?: string | null;
}

export const commercePrivacyRequestContract = defineWorkflow<[PrivacyRequestInput], PrivacyFulfilment>(
  'commercePrivacyRequest',
  'commerce-privacy',
);

/** One workflow per logged request, so a repeated start never fulfils it twice. */
export const commercePrivacyWorkflowId = (requestId: string) => `${commercePrivacyRequestContract.jobKind}:${requestId}`;
