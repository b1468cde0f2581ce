import type { SiteRow } from '../connections/store';

/**
 * The host a platform site is served on: its first custom domain, else its platform subdomain `<short_name>.webflow.io`;
 * null when the row knows neither. Custom domains are stored as the platform lists them (a bare host, sometimes with a
 * scheme, which is dropped).
 */
export function siteDomainOf(site: Pick<SiteRow, 'short_name' | 'custom_domains'>): string | null {
  const custom = Array.isArray(site.custom_domains)
    ? site.custom_domains.find((d) => typeof d?.url === 'string' && d.url !== '')
    : undefined;
  if (custom) return custom.url.replace(/^https?:\/\//i, '').replace(/\/+$/, '');
  return site.short_name ? `${site.short_name}.webflow.io` : null;
}
