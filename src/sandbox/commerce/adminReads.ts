/** Admin routes that read orders and the catalog. */
import type { AdminRoute } from './adminRoute';
import { listCollections, listProducts } from './catalog';
import { json, notFound } from './http';
import { sameId } from './state';
import { countOrders, getOrder, listOrders } from './orders';

export const adminReadRoutes: AdminRoute[] = [
  { method: 'GET', pattern: /^\/orders\.json$/, scope: 'read_orders', handle: (c) => listOrders(c.shop, c.req) },
  { method: 'GET', pattern: /^\/orders\/count\.json$/, scope: 'read_orders', handle: (c) => countOrders(c.shop, c.req) },
  { method: 'GET', pattern: /^\/orders\/(\d+)\.json$/, scope: 'read_orders', handle: (c, m) => getOrder(c.shop, m[1]) },
  { method: 'GET', pattern: /^\/products\.json$/, scope: 'read_products', handle: (c) => listProducts(c.shop, c.req) },
  {
    method: 'GET',
    pattern: /^\/products\/(\d+)\.json$/,
    scope: 'read_products',
    handle: (c, m) => {
      const product = c.shop.products.find((p) => sameId(p.id, m[1]));
      return product ? json(200, { product }) : notFound();
    },
  },
  { method: 'GET', pattern: /^\/custom_collections\.json$/, scope: 'read_products', handle: (c) => listCollections(c.shop, c.req) },
];
