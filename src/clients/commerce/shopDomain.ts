/**
 * A shop domain is a bare, lowercase DNS host name: two or more labels of a–z, 0–9 and inner hyphens (1–63
 * characters each, 253 in all), e.g. `acme.commerce.test`. No scheme, port, path, query, user info or trailing dot,
 * so it can be put into a URL template without changing the URL's structure.
 */
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const SHOP_DOMAIN = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})+$`);

export function isShopDomain(value: string): boolean {
  return SHOP_DOMAIN.test(value);
}

/** The shop's base URL from `COMMERCE_SHOP_URL_TEMPLATE` (`https://{shop}` in production). */
export function shopBaseUrl(template: string, shopDomain: string): string {
  if (!isShopDomain(shopDomain)) throw new Error('not a shop domain');
  return template.replace('{shop}', shopDomain).replace(/\/+$/, '');
}
