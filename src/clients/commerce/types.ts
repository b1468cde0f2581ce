/** The Admin API version every admin call of the service is pinned to (doc3, Versioning). */
export const COMMERCE_API_VERSION = '2025-04';

/** Which shop a call goes to and the offline admin token it carries (decrypted in memory only). */
export interface ShopAccess {
  shopDomain: string;
  accessToken: string;
}

export interface CommerceShop {
  id: string;
  name: string;
  domain: string | null;
  email: string | null;
  currency: string | null;
}

/** An order as the platform sends it; the service reads a few fields and keeps the rest as the raw payload. */
export interface CommerceOrder {
  id: number | string;
  updated_at?: string;
  created_at?: string;
  [field: string]: unknown;
}

export interface CommerceWebhook {
  id: string;
  topic: string;
  address: string;
  format: string;
  api_version: string | null;
}

export interface TokenGrant {
  accessToken: string;
  /** Granted scopes, comma-separated as the platform sends them. */
  scope: string;
}

export interface OrdersPage {
  orders: CommerceOrder[];
  /** Cursor of the next page (from the `Link` header), or null on the last page. */
  nextPageInfo: string | null;
}

export interface ListOrdersInput {
  /** Only orders updated at or after this instant (first page only: a cursor carries its own filters). */
  updatedAtMin?: Date | string;
  /** Cursor from a previous page's `nextPageInfo`; other filters are not allowed with it. */
  pageInfo?: string;
  /** 1..250, default 50. */
  limit?: number;
  /** Listing order (first page only), e.g. `updated_at asc`; the platform's default is `created_at desc`. */
  order?: 'updated_at asc' | 'created_at desc';
}

/** The shop's leaky bucket as last reported by `X-Commerce-Shop-Api-Call-Limit: used/limit`. */
export interface CallLimit {
  used: number;
  limit: number;
  at: number;
}
