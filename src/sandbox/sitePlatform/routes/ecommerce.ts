/**
 * Products with SKUs, orders (update, fulfil, unfulfil, refund) and SKU inventory. Every route answers 409
 * ecommerce_not_enabled on a site without ecommerce.
 */
import { z } from 'zod';
import { json, parseBody, platformError, type SimResponse } from '../http';
import { paginate, readPageQuery } from '../pagination';
import type { Route, RouteContext } from '../router';
import { siteData, type SimOrder, type SimProduct, type SimSku, type SiteData } from '../siteData';
import { iso, newId, slugify } from '../state';
import { ecommerceSite, findOwned, missing } from './support';

const fieldData = z.record(z.string(), z.unknown());
const skuBody = z.object({
  fieldData: fieldData.and(
    z.object({ name: z.string().min(1), price: z.object({ value: z.number().int().min(0), unit: z.string().length(3) }).optional() }),
  ),
});
const productBody = z.object({
  product: z.object({ fieldData: fieldData.and(z.object({ name: z.string().min(1) })) }),
  sku: skuBody,
  publishStatus: z.enum(['staging', 'live']).default('staging'),
});
const productUpdate = z.object({
  product: z.object({ fieldData }).optional(),
  sku: z.object({ fieldData }).optional(),
  publishStatus: z.enum(['staging', 'live']).optional(),
});
const skusBody = z.object({ skus: z.array(skuBody).min(1) });
const orderUpdate = z.object({
  comment: z.string().optional(),
  shippingProvider: z.string().optional(),
  shippingTracking: z.string().optional(),
  shippingTrackingURL: z.url().optional(),
});
const fulfillBody = z.object({ sendOrderFulfilledEmail: z.boolean().optional() });
const refundBody = z.object({ reason: z.enum(['duplicate', 'fraudulent', 'requested']).optional() });
const inventoryBody = z.object({
  inventoryType: z.enum(['infinite', 'finite']),
  updateQuantity: z.number().int().optional(),
  quantity: z.number().int().min(0).optional(),
});

const ORDER_STATUSES = new Set(['pending', 'refunded', 'dispute-lost', 'fulfilled', 'disputed', 'unfulfilled']);

function newSku(data: Record<string, unknown>): SimSku {
  const name = String(data.name);
  return { id: newId(), fieldData: { ...data, slug: data.slug ?? slugify(name) }, inventory: { inventoryType: 'infinite', quantity: 0 } };
}

const skuView = (s: SimSku) => ({ id: s.id, fieldData: structuredClone(s.fieldData) });
const productItem = (p: SimProduct) => ({
  id: p.id,
  fieldData: structuredClone(p.fieldData),
  createdOn: p.createdOn,
  lastUpdated: p.lastUpdated,
});
const productView = (p: SimProduct) => ({ product: productItem(p), skus: p.skus.map(skuView) });

function withProduct(ctx: RouteContext, then: (p: SimProduct, d: SiteData) => SimResponse): SimResponse {
  return ecommerceSite(ctx, (_s, d) => {
    const product = d.products.find((p) => p.id === ctx.req.params.productId);
    return product ? then(product, d) : missing('Product');
  });
}

function withOrder(ctx: RouteContext, then: (o: SimOrder) => SimResponse): SimResponse {
  return ecommerceSite(ctx, (_s, d) => {
    const order = d.orders.find((o) => o.orderId === ctx.req.params.orderId);
    return order ? then(order) : missing('Order');
  });
}

const ORDER = '^\\/sites\\/(?<siteId>[^/]+)\\/orders\\/(?<orderId>[^/]+)';
const PRODUCT = /^\/sites\/(?<siteId>[^/]+)\/products\/(?<productId>[^/]+)$/;
const INVENTORY = /^\/collections\/(?<collectionId>[^/]+)\/items\/(?<skuId>[^/]+)\/inventory$/;

function withSkuInventory(ctx: RouteContext, then: (s: SimSku) => SimResponse): SimResponse {
  const found = findOwned(ctx, 'Item', (d) => d.products.flatMap((p) => p.skus).find((s) => s.id === ctx.req.params.skuId));
  if (!found.ok) return found.response;
  if (!siteData(ctx.state, found.siteId).ecommerce)
    return platformError(409, 'ecommerce_not_enabled', 'Ecommerce is not enabled for this site');
  return then(found.value);
}

export const ecommerceRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/products$/,
    scope: 'ecommerce:read',
    handle: (ctx) =>
      ecommerceSite(ctx, (_s, d) => {
        const q = readPageQuery(ctx.req.query);
        if (!q.ok) return q.response;
        const page = paginate(d.products, q.value);
        return json(200, { items: page.rows.map(productView), pagination: page.pagination });
      }),
  },
  { method: 'GET', pattern: PRODUCT, scope: 'ecommerce:read', handle: (ctx) => withProduct(ctx, (p) => json(200, productView(p))) },
  {
    method: 'POST',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/products$/,
    scope: 'ecommerce:write',
    handle: (ctx) =>
      ecommerceSite(ctx, (_s, d) => {
        const parsed = parseBody(ctx.req, productBody);
        if (!parsed.ok) return parsed.response;
        const now = iso(ctx.state.now());
        const name = String(parsed.value.product.fieldData.name);
        const product: SimProduct = {
          id: newId(),
          fieldData: { ...parsed.value.product.fieldData, slug: parsed.value.product.fieldData.slug ?? slugify(name) },
          skus: [newSku(parsed.value.sku.fieldData)],
          createdOn: now,
          lastUpdated: now,
        };
        d.products.push(product);
        return json(200, productView(product));
      }),
  },
  {
    method: 'PATCH',
    pattern: PRODUCT,
    scope: 'ecommerce:write',
    handle: (ctx) =>
      withProduct(ctx, (p) => {
        const parsed = parseBody(ctx.req, productUpdate);
        if (!parsed.ok) return parsed.response;
        if (parsed.value.product) p.fieldData = { ...p.fieldData, ...parsed.value.product.fieldData };
        if (parsed.value.sku) p.skus[0].fieldData = { ...p.skus[0].fieldData, ...parsed.value.sku.fieldData };
        p.lastUpdated = iso(ctx.state.now());
        // The reference answers an update with the product alone, not the product-and-SKUs pair of create and get.
        return json(200, productItem(p));
      }),
  },
  {
    method: 'POST',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/products\/(?<productId>[^/]+)\/skus$/,
    scope: 'ecommerce:write',
    handle: (ctx) =>
      withProduct(ctx, (p) => {
        const parsed = parseBody(ctx.req, skusBody);
        if (!parsed.ok) return parsed.response;
        const skus = parsed.value.skus.map((s) => newSku(s.fieldData));
        p.skus.push(...skus);
        return json(200, { skus: skus.map(skuView) });
      }),
  },
  {
    method: 'PATCH',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/products\/(?<productId>[^/]+)\/skus\/(?<skuId>[^/]+)$/,
    scope: 'ecommerce:write',
    handle: (ctx) =>
      withProduct(ctx, (p) => {
        const sku = p.skus.find((s) => s.id === ctx.req.params.skuId);
        if (!sku) return missing('SKU');
        const parsed = parseBody(ctx.req, z.object({ sku: z.object({ fieldData }) }));
        if (!parsed.ok) return parsed.response;
        sku.fieldData = { ...sku.fieldData, ...parsed.value.sku.fieldData };
        return json(200, skuView(sku));
      }),
  },
  {
    method: 'GET',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/orders$/,
    scope: 'ecommerce:read',
    handle: (ctx) =>
      ecommerceSite(ctx, (_s, d) => {
        const status = ctx.req.query.get('status');
        if (status !== null && !ORDER_STATUSES.has(status))
          return platformError(400, 'validation_error', 'Unknown order status', [{ param: 'status', description: status }]);
        const q = readPageQuery(ctx.req.query);
        if (!q.ok) return q.response;
        const page = paginate(
          d.orders.filter((o) => status === null || o.status === status),
          q.value,
        );
        return json(200, { orders: structuredClone(page.rows), pagination: page.pagination });
      }),
  },
  {
    method: 'GET',
    pattern: new RegExp(`${ORDER}$`),
    scope: 'ecommerce:read',
    handle: (ctx) => withOrder(ctx, (o) => json(200, structuredClone(o))),
  },
  {
    method: 'PATCH',
    pattern: new RegExp(`${ORDER}$`),
    scope: 'ecommerce:write',
    handle: (ctx) =>
      withOrder(ctx, (o) => {
        const parsed = parseBody(ctx.req, orderUpdate);
        if (!parsed.ok) return parsed.response;
        if (parsed.value.comment !== undefined) o.comment = parsed.value.comment;
        if (parsed.value.shippingProvider !== undefined) o.shippingProvider = parsed.value.shippingProvider;
        if (parsed.value.shippingTracking !== undefined) o.shippingTracking = parsed.value.shippingTracking;
        return json(200, structuredClone(o));
      }),
  },
  {
    method: 'POST',
    pattern: new RegExp(`${ORDER}\\/fulfill$`),
    scope: 'ecommerce:write',
    handle: (ctx) =>
      withOrder(ctx, (o) => {
        const parsed = parseBody(ctx.req, fulfillBody);
        if (!parsed.ok) return parsed.response;
        if (o.status === 'refunded') return platformError(409, 'conflict', 'A refunded order cannot be fulfilled');
        o.status = 'fulfilled';
        o.fulfilledOn = iso(ctx.state.now());
        return json(200, structuredClone(o));
      }),
  },
  {
    method: 'POST',
    pattern: new RegExp(`${ORDER}\\/unfulfill$`),
    scope: 'ecommerce:write',
    handle: (ctx) =>
      withOrder(ctx, (o) => {
        if (o.status === 'refunded') return platformError(409, 'conflict', 'A refunded order cannot be unfulfilled');
        o.status = 'unfulfilled';
        o.fulfilledOn = null;
        return json(200, structuredClone(o));
      }),
  },
  {
    method: 'POST',
    pattern: new RegExp(`${ORDER}\\/refund$`),
    scope: 'ecommerce:write',
    handle: (ctx) =>
      withOrder(ctx, (o) => {
        const parsed = parseBody(ctx.req, refundBody);
        if (!parsed.ok) return parsed.response;
        if (o.status === 'refunded') return platformError(409, 'conflict', 'The order is already refunded');
        o.status = 'refunded';
        o.refundedOn = iso(ctx.state.now());
        return json(200, structuredClone(o));
      }),
  },
  {
    method: 'GET',
    pattern: INVENTORY,
    scope: 'ecommerce:read',
    handle: (ctx) => withSkuInventory(ctx, (s) => json(200, { id: s.id, ...s.inventory })),
  },
  {
    method: 'PATCH',
    pattern: INVENTORY,
    scope: 'ecommerce:write',
    handle: (ctx) =>
      withSkuInventory(ctx, (s) => {
        const parsed = parseBody(ctx.req, inventoryBody);
        if (!parsed.ok) return parsed.response;
        const v = parsed.value;
        if (v.quantity !== undefined && v.updateQuantity !== undefined)
          return platformError(400, 'validation_error', 'Give quantity or updateQuantity, not both', [
            { param: 'quantity', description: 'exclusive with updateQuantity' },
          ]);
        const quantity = v.quantity ?? s.inventory.quantity + (v.updateQuantity ?? 0);
        if (quantity < 0)
          return platformError(400, 'validation_error', 'Inventory cannot go below zero', [
            { param: 'updateQuantity', description: String(v.updateQuantity) },
          ]);
        s.inventory = { inventoryType: v.inventoryType, quantity: v.inventoryType === 'infinite' ? 0 : quantity };
        return json(200, { id: s.id, ...s.inventory });
      }),
  },
];
