import { resolveDateRange, type DayRange } from './dateRange';

export type SimMetric = 'visitors' | 'visits' | 'pageviews' | 'events';
export type SimDimension = 'event:page' | 'event:goal' | 'time:day';

export interface SimFilter {
  operator: 'is' | 'contains';
  dimension: 'event:page' | 'event:goal';
  clauses: string[];
}

export interface SimQuery {
  siteId: string;
  metrics: SimMetric[];
  range: DayRange;
  dimensions: SimDimension[];
  /** The dimensions as asked (`time` stays `time`): answers and order_by name them so. */
  dimensionNames: string[];
  filters: SimFilter[];
  orderBy: Array<[string, 'asc' | 'desc']> | null;
  limit: number;
  offset: number;
  totalRows: boolean;
}

/** What the reference accepts; the simulator computes the subset in SIMULATED_* and refuses the rest plainly. */
const REFERENCE_METRICS = new Set([
  'visitors', 'visits', 'pageviews', 'views_per_visit', 'bounce_rate', 'visit_duration', 'events', 'scroll_depth',
  'percentage', 'conversion_rate', 'group_conversion_rate', 'average_revenue', 'total_revenue', 'time_on_page',
]); // prettier-ignore
const SIMULATED_METRICS = new Set<string>(['visitors', 'visits', 'pageviews', 'events']);
const EVENT_PROPS = new Set(['name', 'page', 'goal', 'hostname']);
const VISIT_PROPS = new Set([
  'entry_page', 'exit_page', 'source', 'referrer', 'channel', 'utm_medium', 'utm_source', 'utm_campaign', 'utm_content',
  'utm_term', 'device', 'browser', 'browser_version', 'os', 'os_version', 'country', 'region', 'city', 'country_name',
  'region_name', 'city_name', 'entry_page_hostname', 'exit_page_hostname',
]); // prettier-ignore
const TIME_DIMENSIONS = new Set(['time', 'time:minute', 'time:hour', 'time:day', 'time:week', 'time:month']);
const OPERATORS = new Set(['is', 'is_not', 'matches', 'matches_not', 'matches_wildcard', 'matches_wildcard_not', 'contains', 'contains_not', 'and', 'or', 'not', 'has_done', 'has_not_done']); // prettier-ignore
const KEYS = new Set(['site_id', 'metrics', 'date_range', 'dimensions', 'filters', 'order_by', 'include', 'pagination', 'date']);

/** `inspect`-like quoting the reference uses in its messages. */
const show = (value: unknown) => JSON.stringify(value);

export type Parsed = { query: SimQuery } | { error: string };

/**
 * A query body checked as the reference checks it (messages shaped like its `{ "error": "..." }` answers): required
 * keys, known metrics, dimensions, operators and date ranges. Valid parts the simulator does not compute (other
 * metrics, visit dimensions, other operators) are refused with a message that says so.
 */
export function parseQuery(body: Record<string, unknown>, now: Date): Parsed {
  for (const key of Object.keys(body))
    if (!KEYS.has(key)) return { error: `#: Schema does not allow additional properties: ${show(key)}.` };
  for (const key of ['metrics', 'date_range'] as const) {
    if (body[key] === undefined) return { error: `#: Required property ${key} was not present.` };
  }
  const siteId = body.site_id as string;
  if (!Array.isArray(body.metrics) || body.metrics.length === 0) return { error: '#/metrics: Expected a non-empty list of metrics.' };
  for (const metric of body.metrics) {
    if (typeof metric !== 'string' || !REFERENCE_METRICS.has(metric)) return { error: `Unknown metric '${show(metric)}'.` };
    if (!SIMULATED_METRICS.has(metric)) return { error: `The simulator does not compute the metric ${show(metric)}.` };
  }
  const range = resolveDateRange(body.date_range, now);
  if (!range) return { error: `Invalid date_range ${show(body.date_range)}` };

  const dimensions = body.dimensions ?? [];
  if (!Array.isArray(dimensions)) return { error: `Invalid dimensions '${show(dimensions)}'` };
  const simDimensions: SimDimension[] = [];
  for (const d of dimensions) {
    if (typeof d !== 'string' || !isReferenceDimension(d)) return { error: `Invalid dimensions '${show(dimensions)}'` };
    const simulated = d === 'time' ? 'time:day' : d;
    if (simulated !== 'event:page' && simulated !== 'event:goal' && simulated !== 'time:day') {
      return { error: `The simulator does not group by ${show(d)}.` };
    }
    simDimensions.push(simulated);
  }

  const filters = parseFilters(body.filters ?? []);
  if ('error' in filters) return filters;
  const pagination = parsePagination(body.pagination);
  if ('error' in pagination) return pagination;
  const orderBy = parseOrderBy(body.order_by, body.metrics as string[], dimensions as string[]);
  if (orderBy && 'error' in orderBy) return orderBy;
  const include = body.include as { total_rows?: unknown } | undefined;
  return {
    query: {
      siteId,
      metrics: body.metrics as SimMetric[],
      range,
      dimensions: simDimensions,
      dimensionNames: dimensions as string[],
      filters: filters.filters,
      orderBy: orderBy ? orderBy.entries : null,
      ...pagination,
      totalRows: include?.total_rows === true,
    },
  };
}

function isReferenceDimension(d: string): boolean {
  if (TIME_DIMENSIONS.has(d)) return true;
  if (d.startsWith('event:props:')) return d.length > 'event:props:'.length;
  if (d.startsWith('event:')) return EVENT_PROPS.has(d.slice(6));
  if (d.startsWith('visit:')) return VISIT_PROPS.has(d.slice(6));
  return false;
}

function parseFilters(value: unknown): { filters: SimFilter[] } | { error: string } {
  if (!Array.isArray(value)) return { error: 'Invalid filters passed.' };
  const filters: SimFilter[] = [];
  for (const filter of value) {
    if (!Array.isArray(filter) || !OPERATORS.has(filter[0] as string)) return { error: `Unknown operator for filter '${show(filter)}'.` };
    const [operator, dimension, clauses] = filter as [string, unknown, unknown];
    if (['and', 'or', 'not', 'has_done', 'has_not_done'].includes(operator)) {
      return { error: `The simulator does not evaluate ${show(operator)} filters.` };
    }
    if (typeof dimension !== 'string' || !isReferenceDimension(dimension) || TIME_DIMENSIONS.has(dimension)) {
      return { error: `Invalid filter '${show(filter)}'` };
    }
    if (!Array.isArray(clauses) || !clauses.every((c) => typeof c === 'string')) return { error: `Invalid filter '${show(filter)}'.` };
    if ((operator !== 'is' && operator !== 'contains') || (dimension !== 'event:page' && dimension !== 'event:goal')) {
      return { error: `The simulator evaluates only is/contains filters on event:page and event:goal, not ${show(filter)}.` };
    }
    filters.push({ operator, dimension, clauses });
  }
  return { filters };
}

function parsePagination(value: unknown): { limit: number; offset: number } | { error: string } {
  if (value === undefined) return { limit: 10_000, offset: 0 };
  const p = value as { limit?: unknown; offset?: unknown };
  const limit = p.limit ?? 10_000;
  const offset = p.offset ?? 0;
  if (typeof value !== 'object' || value === null || !Number.isInteger(limit) || !Number.isInteger(offset)) {
    return { error: `#/pagination: Invalid pagination ${show(value)}.` };
  }
  if ((limit as number) < 1 || (limit as number) > 10_000 || (offset as number) < 0)
    return { error: `#/pagination: Invalid pagination ${show(value)}.` };
  return { limit: limit as number, offset: offset as number };
}

function parseOrderBy(
  value: unknown,
  metrics: string[],
  dimensions: string[],
): { entries: Array<[string, 'asc' | 'desc']> } | { error: string } | null {
  if (value === undefined) return null;
  if (!Array.isArray(value)) return { error: `Invalid order_by '${show(value)}'.` };
  const entries: Array<[string, 'asc' | 'desc']> = [];
  for (const entry of value) {
    if (!Array.isArray(entry) || entry.length !== 2 || (entry[1] !== 'asc' && entry[1] !== 'desc')) {
      return { error: `Invalid order_by entry '${show(entry)}'.` };
    }
    if (!metrics.includes(entry[0] as string) && !dimensions.includes(entry[0] as string)) {
      return { error: `Invalid order_by entry '${show(entry)}'. Entry is not a queried metric or dimension.` };
    }
    entries.push([entry[0] as string, entry[1]]);
  }
  return { entries };
}
