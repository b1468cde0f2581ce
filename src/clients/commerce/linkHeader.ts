/**
 * The `page_info` cursor of the `rel="next"` entry of a `Link` header
 * (`<https://shop/admin/api/2025-04/orders.json?limit=50&page_info=abc>; rel="next", <…>; rel="previous"`), or null.
 */
export function nextPageInfo(link: string | string[] | undefined): string | null {
  const value = Array.isArray(link) ? link.join(',') : link;
  if (!value) return null;
  for (const part of value.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (!match || !/\brel\s*=\s*"?next"?/i.test(match[2])) continue;
    try {
      return new URL(match[1], 'http://placeholder.invalid').searchParams.get('page_info');
    } catch {
      return null;
    }
  }
  return null;
}
