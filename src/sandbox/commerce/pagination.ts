/**
 * Cursor pagination the platform's way: the `page_info` cursor is opaque, carries the original filters and the
 * boundary row, and the next/previous pages are announced in a `Link` header.
 */
import { badParam, type SimResponse } from './http';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 250;

/** A row's position in the listing order: [sort value, numeric id]. */
export type SortKey = [number, number];

interface Cursor {
  /** The filters of the first request, replayed on every page. */
  f: Record<string, string>;
  d: 'next' | 'prev';
  k: SortKey;
}

export interface PageQuery {
  limit: number;
  filters: Record<string, string>;
  cursor?: Cursor;
}

/** Reads limit and page_info; with page_info only `limit` and `fields` may accompany it. */
export function readPageQuery(query: URLSearchParams): PageQuery | SimResponse {
  const rawLimit = query.get('limit');
  const limit = rawLimit === null ? DEFAULT_LIMIT : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    return badParam('limit', `must be an integer between 1 and ${MAX_LIMIT}`);
  }
  const filters: Record<string, string> = {};
  for (const [k, v] of query) if (k !== 'limit' && k !== 'page_info' && k !== 'fields') filters[k] = v;
  const pageInfo = query.get('page_info');
  if (pageInfo === null) return { limit, filters };
  if (Object.keys(filters).length > 0) {
    return badParam('page_info', 'cannot be combined with other parameters than limit and fields');
  }
  const cursor = decodeCursor(pageInfo);
  return cursor ? { limit, filters: cursor.f, cursor } : badParam('page_info', 'is invalid');
}

function decodeCursor(value: string): Cursor | undefined {
  try {
    const c = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Cursor;
    const okKey = Array.isArray(c.k) && c.k.length === 2 && c.k.every((n) => typeof n === 'number');
    return c && typeof c.f === 'object' && (c.d === 'next' || c.d === 'prev') && okKey ? c : undefined;
  } catch {
    return undefined;
  }
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function compare(a: SortKey, b: SortKey): number {
  return a[0] - b[0] || a[1] - b[1];
}

export interface Page<T> {
  rows: T[];
  link?: string;
}

/**
 * One page of `rows` (already filtered) in ascending `keyOf` order. `pageUrl(cursor)` builds the absolute URL of
 * another page.
 */
export function paginate<T>(rows: T[], keyOf: (row: T) => SortKey, q: PageQuery, pageUrl: (pageInfo: string) => string): Page<T> {
  const sorted = [...rows].sort((a, b) => compare(keyOf(a), keyOf(b)));
  let start = 0;
  let end = Math.min(sorted.length, q.limit);
  if (q.cursor?.d === 'next') {
    const k = q.cursor.k;
    start = firstIndex(sorted, (r) => compare(keyOf(r), k) > 0);
    end = Math.min(sorted.length, start + q.limit);
  } else if (q.cursor?.d === 'prev') {
    const k = q.cursor.k;
    end = firstIndex(sorted, (r) => compare(keyOf(r), k) >= 0);
    start = Math.max(0, end - q.limit);
  }
  const page = sorted.slice(start, end);
  const links: string[] = [];
  if (start > 0 && page.length > 0) {
    links.push(`<${pageUrl(encodeCursor({ f: q.filters, d: 'prev', k: keyOf(page[0]) }))}>; rel="previous"`);
  }
  if (end < sorted.length && page.length > 0) {
    links.push(`<${pageUrl(encodeCursor({ f: q.filters, d: 'next', k: keyOf(page[page.length - 1]) }))}>; rel="next"`);
  }
  return { rows: page, link: links.length > 0 ? links.join(', ') : undefined };
}

function firstIndex<T>(rows: T[], test: (row: T) => boolean): number {
  const i = rows.findIndex(test);
  return i < 0 ? rows.length : i;
}

/** Keeps only the requested top-level fields (`fields=id,name`). */
export function pickFields<T extends object>(row: T, fields: string | null): Partial<T> {
  if (!fields) return row;
  const wanted = new Set(fields.split(',').map((f) => f.trim()));
  return Object.fromEntries(Object.entries(row).filter(([k]) => wanted.has(k))) as Partial<T>;
}
