export { createCommerceClient, ORDERS_PAGE_MAX, type CommerceClient } from './client';
export { isShopDomain, shopBaseUrl } from './shopDomain';
export * from './types';
