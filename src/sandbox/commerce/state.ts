/**
 * The simulator's in-memory world: apps, shops and what each shop holds. Every record is shaped like the
 * platform's Admin API 2025-04 JSON, so handlers serialise records as they are.
 */
import { randomBytes } from 'node:crypto';

export const API_VERSION = '2025-04';

export interface SimApp {
  clientId: string;
  clientSecret: string;
  /** Scopes the app grants on install; when absent the requested scopes are granted. */
  scopes?: string[];
}

export interface SimShopInfo {
  id: number;
  name: string;
  email: string;
  domain: string;
  myshopify_domain: string;
  currency: string;
  iana_timezone: string;
  plan_name: string;
  created_at: string;
  updated_at: string;
}

export interface SimCustomer {
  id: number;
  admin_graphql_api_id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  created_at: string;
  updated_at: string;
  tags: string;
}

export interface SimLineItem {
  id: number;
  admin_graphql_api_id: string;
  product_id: number | null;
  variant_id: number | null;
  title: string;
  variant_title: string | null;
  sku: string | null;
  quantity: number;
  price: string;
}

export interface SimOrder {
  id: number;
  admin_graphql_api_id: string;
  name: string;
  order_number: number;
  email: string | null;
  contact_email: string | null;
  created_at: string;
  updated_at: string;
  processed_at: string;
  closed_at: string | null;
  cancelled_at: string | null;
  cancel_reason: string | null;
  currency: string;
  presentment_currency: string;
  subtotal_price: string;
  total_tax: string;
  total_discounts: string;
  total_price: string;
  financial_status: string;
  fulfillment_status: string | null;
  source_name: string;
  tags: string;
  note: string | null;
  test: boolean;
  customer: SimCustomer | null;
  line_items: SimLineItem[];
}

export interface SimWebhook {
  id: number;
  topic: string;
  address: string;
  format: 'json';
  api_version: string;
  fields: string[];
  metafield_namespaces: string[];
  created_at: string;
  updated_at: string;
}

export interface SimVariant {
  id: number;
  admin_graphql_api_id: string;
  product_id: number;
  title: string;
  price: string;
  compare_at_price: string | null;
  sku: string;
  position: number;
  inventory_policy: 'deny' | 'continue';
  inventory_quantity: number;
  taxable: boolean;
  option1: string;
  created_at: string;
  updated_at: string;
}

export interface SimProduct {
  id: number;
  admin_graphql_api_id: string;
  title: string;
  body_html: string;
  vendor: string;
  product_type: string;
  handle: string;
  status: 'active' | 'draft' | 'archived';
  tags: string;
  published_scope: 'web';
  published_at: string | null;
  created_at: string;
  updated_at: string;
  variants: SimVariant[];
  options: Array<{ id: number; product_id: number; name: string; position: number; values: string[] }>;
  images: unknown[];
  image: unknown | null;
}

export interface SimCollection {
  id: number;
  admin_graphql_api_id: string;
  handle: string;
  title: string;
  body_html: string;
  sort_order: string;
  template_suffix: string | null;
  published_scope: 'web';
  published_at: string | null;
  updated_at: string;
}

/** A webhook subscription remembers the app that created it: deliveries are signed with that app's secret. */
export interface StoredWebhook extends SimWebhook {
  clientId: string;
}

export interface ShopState {
  info: SimShopInfo;
  orders: SimOrder[];
  customers: SimCustomer[];
  webhooks: StoredWebhook[];
  products: SimProduct[];
  collections: SimCollection[];
  nextOrderNumber: number;
}

export interface AuthorizationCode {
  code: string;
  domain: string;
  clientId: string;
  scopes: string[];
  online: boolean;
  expiresAt: number;
  used: boolean;
}

export interface AccessToken {
  token: string;
  domain: string;
  clientId: string;
  scopes: string[];
}

export interface RequestLogEntry {
  method: string;
  path: string;
  query: string;
  status: number;
}

export interface SimState {
  apps: Map<string, SimApp>;
  shops: Map<string, ShopState>;
  codes: Map<string, AuthorizationCode>;
  tokens: Map<string, AccessToken>;
  /** The app that last completed OAuth on each shop: signs deliveries when no subscription names one. */
  installedBy: Map<string, string>;
  log: RequestLogEntry[];
  /** The next platform id: a JSON integer, as the platform's REST ids are. */
  nextId(): number;
  random(): number;
}

/** Seeded PRNG (mulberry32) so generated data is the same on every run with the same seed. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function createState(seed = 20250401): SimState {
  // Ids look like the platform's 13-digit integer ids and stay below 2^53, so they survive a JSON number round trip.
  let lastId = 5_100_000_000_000;
  return {
    apps: new Map(),
    shops: new Map(),
    codes: new Map(),
    tokens: new Map(),
    installedBy: new Map(),
    log: [],
    nextId: () => (lastId += 1 + (lastId % 7)),
    random: seededRandom(seed),
  };
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

/** The platform's timestamp style: second precision with an explicit offset. */
export function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', '+00:00');
}

export function gid(kind: string, id: number | string): string {
  return `gid://commerce/${kind}/${id}`;
}

/** Whether a record's integer id is the one a path or a caller names (paths carry ids as text). */
export const sameId = (id: number, wanted: number | string): boolean => String(id) === String(wanted);

export function shopOrThrow(state: SimState, domain: string): ShopState {
  const shop = state.shops.get(domain);
  if (!shop) throw new Error(`commerce simulator: unknown shop ${domain}`);
  return shop;
}
