/** Orders: the Admin API listing (filters, order, cursor pages) and the simulator's addOrders/updateOrder. */
import { batchTimes, buildOrder } from './orderFactory';
import { badParam, json, notFound, type SimResponse, type SimRequest } from './http';
import { paginate, pickFields, readPageQuery, type SortKey } from './pagination';
import { API_VERSION, isoSeconds, sameId, shopOrThrow, type ShopState, type SimOrder, type SimState } from './state';

const STATUSES = new Set(['open', 'closed', 'cancelled', 'any']);
const ORDER_FIELDS = new Set(['created_at', 'updated_at', 'processed_at', 'id']);
const TIME_FILTERS = [
  'created_at_min',
  'created_at_max',
  'updated_at_min',
  'updated_at_max',
  'processed_at_min',
  'processed_at_max',
] as const;

function statusOf(o: SimOrder): string {
  if (o.cancelled_at) return 'cancelled';
  return o.closed_at ? 'closed' : 'open';
}

type Filter = (o: SimOrder) => boolean;

/** The filters of the listing as predicates, or a 400 naming the bad parameter. */
function readFilters(filters: Record<string, string>): Filter[] | SimResponse {
  const out: Filter[] = [];
  const status = filters.status ?? 'open';
  if (!STATUSES.has(status)) return badParam('status', 'must be one of open, closed, cancelled, any');
  if (status !== 'any') out.push((o) => statusOf(o) === status);
  for (const name of TIME_FILTERS) {
    const raw = filters[name];
    if (raw === undefined) continue;
    const at = Date.parse(raw);
    if (Number.isNaN(at)) return badParam(name, 'must be an ISO 8601 date-time');
    const field = name.replace(/_(min|max)$/, '') as 'created_at' | 'updated_at' | 'processed_at';
    out.push(name.endsWith('_min') ? (o) => Date.parse(o[field]) >= at : (o) => Date.parse(o[field]) <= at);
  }
  if (filters.since_id !== undefined) {
    const since = Number(filters.since_id);
    if (!Number.isFinite(since)) return badParam('since_id', 'must be a number');
    out.push((o) => o.id > since);
  }
  if (filters.ids !== undefined) {
    const ids = new Set(filters.ids.split(',').map((s) => s.trim()));
    out.push((o) => ids.has(String(o.id)));
  }
  return out;
}

/** `order=updated_at asc`; default `created_at desc`. Descending is ascending on the negated key. */
function readOrder(value: string | undefined): ((o: SimOrder) => SortKey) | SimResponse {
  const [field, dir = 'desc'] = (value ?? 'created_at desc').trim().split(/\s+/);
  if (!ORDER_FIELDS.has(field) || (dir !== 'asc' && dir !== 'desc')) {
    return badParam('order', 'must be one of created_at, updated_at, processed_at, id followed by asc or desc');
  }
  const sign = dir === 'asc' ? 1 : -1;
  return (o) => {
    const id = o.id;
    const value = field === 'id' ? id : Date.parse(o[field as 'created_at']);
    return [sign * value, sign * id];
  };
}

export function listOrders(shop: ShopState, req: SimRequest): SimResponse {
  const q = readPageQuery(req.query);
  if ('status' in q) return q;
  const filters = readFilters(q.filters);
  if (!Array.isArray(filters)) return filters;
  const keyOf = readOrder(q.filters.order);
  if (typeof keyOf !== 'function') return keyOf;
  const rows = shop.orders.filter((o) => filters.every((f) => f(o)));
  const pageUrl = (pageInfo: string) =>
    `${req.baseUrl}/${shop.info.myshopify_domain}/admin/api/${API_VERSION}/orders.json?limit=${q.limit}&page_info=${pageInfo}`;
  const page = paginate(rows, keyOf, q, pageUrl);
  const fields = req.query.get('fields');
  return json(200, { orders: page.rows.map((o) => pickFields(o, fields)) }, page.link ? { link: page.link } : undefined);
}

export function countOrders(shop: ShopState, req: SimRequest): SimResponse {
  const filters = readFilters(Object.fromEntries(req.query));
  if (!Array.isArray(filters)) return filters;
  return json(200, { count: shop.orders.filter((o) => filters.every((f) => f(o))).length });
}

export function getOrder(shop: ShopState, id: string): SimResponse {
  const order = shop.orders.find((o) => sameId(o.id, id));
  return order ? json(200, { order }) : notFound();
}

export function addOrders(state: SimState, domain: string, orders: Array<Partial<SimOrder>> | number): SimOrder[] {
  const shop = shopOrThrow(state, domain);
  const partials = typeof orders === 'number' ? Array.from({ length: orders }, () => ({})) : orders;
  const times = batchTimes(shop, partials.length);
  const built = partials.map((p, i) => buildOrder(state, shop, p, times[i]));
  shop.orders.push(...built);
  return built.map((o) => structuredClone(o));
}

export function updateOrder(state: SimState, domain: string, orderId: number | string, patch: Partial<SimOrder>): SimOrder {
  const shop = shopOrThrow(state, domain);
  const order = shop.orders.find((o) => sameId(o.id, orderId));
  if (!order) throw new Error(`commerce simulator: unknown order ${orderId} on ${domain}`);
  Object.assign(order, patch, { id: order.id, updated_at: patch.updated_at ?? isoSeconds(Date.now()) });
  return structuredClone(order);
}
