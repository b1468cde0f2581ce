import { z } from 'zod';
import { read, write } from '../define';
import { confirm, fieldData, id, obj, paging, siteId } from '../params';

const product = { ...siteId, product_id: id };
const order = { ...siteId, order_id: id };
const er = { scopes: ['ecommerce:read'] } as const;
const ew = { scopes: ['ecommerce:write'] } as const;
// Products and SKUs are CMS items on the platform, and inventory is addressed by collection and item, so these also read the CMS.
const erCms = { scopes: ['ecommerce:read', 'cms:read'] } as const;
const ewCms = { scopes: ['ecommerce:write', 'cms:read'] } as const;
const skuBody = z.object({ fieldData }).passthrough();

export const productOperations = [
  read('product_list', 'product', 'GET', '/sites/{site_id}/products', obj({ ...siteId, ...paging }), erCms),
  read('product_get', 'product', 'GET', '/sites/{site_id}/products/{product_id}', obj(product), erCms),
  write(
    'product_create',
    'product',
    'POST',
    '/sites/{site_id}/products',
    obj({ ...siteId, publishStatus: z.enum(['staging', 'live']).optional(), product: z.object({ fieldData }).passthrough(), sku: skuBody }),
    ewCms,
  ),
  write(
    'product_update',
    'product',
    'PATCH',
    '/sites/{site_id}/products/{product_id}',
    obj({
      ...product,
      publishStatus: z.enum(['staging', 'live']).optional(),
      product: z.object({ fieldData }).passthrough().optional(),
      sku: skuBody.optional(),
    }),
    { ...ewCms, lock: 'product_id' },
  ),
];

export const skuOperations = [
  write(
    'sku_create',
    'sku',
    'POST',
    '/sites/{site_id}/products/{product_id}/skus',
    obj({ ...product, skus: z.array(skuBody).min(1) }),
    ewCms,
  ),
  write(
    'sku_update',
    'sku',
    'PATCH',
    '/sites/{site_id}/products/{product_id}/skus/{sku_id}',
    obj({ ...product, sku_id: id, sku: skuBody }),
    { ...ewCms, lock: 'sku_id' },
  ),
];

export const orderOperations = [
  read(
    'order_list',
    'order',
    'GET',
    '/sites/{site_id}/orders',
    obj({
      ...siteId,
      ...paging,
      status: z.enum(['pending', 'refunded', 'dispute-lost', 'fulfilled', 'disputed', 'unfulfilled']).optional(),
    }),
    er,
  ),
  read('order_get', 'order', 'GET', '/sites/{site_id}/orders/{order_id}', obj(order), er),
  write(
    'order_update',
    'order',
    'PATCH',
    '/sites/{site_id}/orders/{order_id}',
    obj({
      ...order,
      comment: z.string().optional(),
      shippingProvider: z.string().optional(),
      shippingTracking: z.string().optional(),
      shippingTrackingURL: z.string().url().optional(),
    }),
    { ...ew, lock: 'order_id' },
  ),
  write(
    'order_fulfill',
    'order',
    'POST',
    '/sites/{site_id}/orders/{order_id}/fulfill',
    obj({ ...order, ...confirm, sendOrderFulfilledEmail: z.boolean().optional() }),
    { ...ew, confirm: true, lock: 'order_id' },
  ),
  write('order_unfulfill', 'order', 'POST', '/sites/{site_id}/orders/{order_id}/unfulfill', obj(order), { ...ew, lock: 'order_id' }),
  write(
    'order_refund',
    'order',
    'POST',
    '/sites/{site_id}/orders/{order_id}/refund',
    obj({ ...order, ...confirm, reason: z.enum(['duplicate', 'fraudulent', 'requested']).optional() }),
    { ...ew, confirm: true, lock: 'order_id' },
  ),
];

export const inventoryOperations = [
  read(
    'inventory_get',
    'inventory',
    'GET',
    '/collections/{collection_id}/items/{item_id}/inventory',
    obj({ ...siteId, collection_id: id, item_id: id }),
    erCms,
  ),
  write(
    'inventory_update',
    'inventory',
    'PATCH',
    '/collections/{collection_id}/items/{item_id}/inventory',
    obj({
      ...siteId,
      collection_id: id,
      item_id: id,
      inventoryType: z.enum(['infinite', 'finite']),
      updateQuantity: z.number().int().optional(),
      quantity: z.number().int().min(0).optional(),
    }),
    { ...ewCms, lock: 'item_id' },
  ),
];
