// Every workflow of the product is re-exported here for the worker bundle (one file per workflow).
export { purgeIdempotencyKeys } from './purgeIdempotencyKeys';
export { commerceShopWorkflow } from './commerceShop';
export { commerceOrderBackfill } from './commerceOrderBackfill';
export { commerceShopBackfill } from './commerceShopBackfill';
export { commerceWebhookHealth } from './commerceWebhookHealth';
export { commerceComplianceSweep } from './commerceComplianceSweep';
export { commercePrivacyRequest } from './commercePrivacyRequest';
export { commerceScopeDrift } from './commerceScopeDrift';
export { commerceWebhookUrlReconcile } from './commerceWebhookUrlReconcile';
export { commerceDeliveryPurge } from './commerceDeliveryPurge';
export { research } from './research';
export { emailEventDelivery } from './emailEventDelivery';
export { emailEventRedispatch } from './emailEventRedispatch';
export { emailBatchDelivery } from './emailBatchDelivery';
