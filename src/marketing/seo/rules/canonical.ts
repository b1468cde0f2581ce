import { isBlank } from '../text';
import { error, type SeoRule } from '../types';

/** The absolute http(s) URL in `value`, or null. */
export function httpUrl(value: string | null | undefined): URL | null {
  if (isBlank(value)) return null;
  try {
    const url = new URL(value!.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname ? url : null;
  } catch {
    return null;
  }
}

/** An unset canonical URL is fine (the page is its own canonical); a set one must be an absolute http(s) URL. */
export const canonicalRules: SeoRule = ({ item }) => {
  if (isBlank(item.canonical_url) || httpUrl(item.canonical_url)) return [];
  return [error('canonical_url', 'canonical_url_invalid', `The canonical URL "${item.canonical_url}" is not an absolute http(s) URL.`)];
};
