/** The connected shop the commerce sweeps hand from their page activity to their per-shop work. No I/O. */

/** A connected shop: its connection, the account that owns it, and its domain. */
export interface ShopRef {
  accountId: string;
  connectionId: string;
  shopDomain: string;
}
