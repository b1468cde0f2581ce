export { createSitePlatformClient } from './client';
export { exchangeAuthorizationCode, revokeAuthorization } from './oauth';
export { TokenBucket, type Admission } from './tokenBucket';
export * from './types';
export { createSiteWebhook, deleteWebhook, listSiteWebhooks, type PlatformWebhook } from './webhooks';
