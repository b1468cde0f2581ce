// Every workflow of the product is re-exported here for the worker bundle (one file per workflow).
export { purgeIdempotencyKeys } from './purgeIdempotencyKeys';
export { commerceShopWorkflow } from './commerceShop';
