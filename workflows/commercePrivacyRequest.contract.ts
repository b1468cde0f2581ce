import { defineWorkflow } from './defineWorkflow';

/** The contract of a privacy request's fulfilment (commercePrivacyRequest.ts). No I/O. */

export interface PrivacyRequestInput {
  accountId: string;
  requestId: string;
  connectionId?: string | null;
}

/** customers/data_request: the urgent inbox item holding the package, and what it holds. */
export interface DataPackageResult {
  inbox_item_id: string;
  orders: number;
  contacts: number;
}

/** customers/redact: what was scrubbed, deleted or reset. */
export interface CustomerRedaction {
  orders_scrubbed: number;
  notes_scrubbed: number;
  contacts_deleted: number;
  contacts_reset: number;
}

/** shop/redact: what was scrubbed, deleted or reset across every order the shop logged. */
export interface ShopRedaction {
  /** The connection was disconnected and its tokens dropped by this redaction (or already was). */
  disconnected: boolean;
  /** The shop was installed again after the request: that newer installation is left connected. */
  reinstalled: boolean;
  orders_scrubbed: number;
  notes_scrubbed: number;
  contacts_deleted: number;
  contacts_reset: number;
}

/** The workflow's result, as the fulfilment activity answers it. */
export type PrivacyFulfilment =
  | { status: 'fulfilled'; topic: string; detail: DataPackageResult | CustomerRedaction | ShopRedaction }
  | { status: 'already_fulfilled'; topic: string }
  /** A topic without fulfilment rules: the request stays unfulfilled, so the 30-day alert still reaches someone. */
  | { status: 'unsupported_topic'; topic: string }
  | { status: 'not_found' };

export const commercePrivacyRequestContract = defineWorkflow<[PrivacyRequestInput], PrivacyFulfilment>(
  'commercePrivacyRequest',
  'commerce-privacy',
);

/** One workflow per logged request, so a repeated start never fulfils it twice. */
export const commercePrivacyWorkflowId = (requestId: string) => `${commercePrivacyRequestContract.jobKind}:${requestId}`;
