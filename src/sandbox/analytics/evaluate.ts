import type { SimFilter, SimQuery } from './query';
import type { TrafficRow } from './traffic';

export interface ResultRow {
  metrics: number[];
  dimensions: string[];
}

interface Counts {
  pageviews: number;
  visitors: number;
  events: number;
}

/**
 * The query's answer rows from the site's traffic in its range. With a goal filter (or an `event:goal` dimension)
 * only conversions of `formGoal` count: their `events` are the form submits, no pageviews. A group with nothing in
 * it is left out, as the reference leaves out buckets without data. Ordered as asked, else by time ascending when a
 * time dimension is present, else by the first metric descending; then paged.
 */
export function evaluate(query: SimQuery, traffic: TrafficRow[], formGoal: string): { rows: ResultRow[]; total: number } {
  const goalOnly = query.dimensions.includes('event:goal') || query.filters.some((f) => f.dimension === 'event:goal');
  const goalAllowed = query.filters.filter((f) => f.dimension === 'event:goal').every((f) => matches(f, formGoal));
  const pageFilters = query.filters.filter((f) => f.dimension === 'event:page');
  const groups = new Map<string, { dimensions: string[]; counts: Counts }>();
  for (const row of traffic) {
    if (!pageFilters.every((f) => matches(f, row.path))) continue;
    if (goalOnly && !goalAllowed) continue;
    const counts: Counts = goalOnly
      ? { pageviews: 0, visitors: Math.min(row.visitors, row.formSubmits), events: row.formSubmits }
      : { pageviews: row.pageviews, visitors: row.visitors, events: row.pageviews + row.formSubmits };
    if (counts.events === 0) continue;
    const dimensions = query.dimensions.map((d) => (d === 'event:page' ? row.path : d === 'time:day' ? row.date : formGoal));
    const key = JSON.stringify(dimensions);
    const group = groups.get(key) ?? { dimensions, counts: { pageviews: 0, visitors: 0, events: 0 } };
    group.counts.pageviews += counts.pageviews;
    group.counts.visitors += counts.visitors;
    group.counts.events += counts.events;
    groups.set(key, group);
  }
  const rows = [...groups.values()].map(({ dimensions, counts }) => ({
    dimensions,
    metrics: query.metrics.map((m) => (m === 'visits' ? counts.visitors : counts[m])),
  }));
  rows.sort(comparator(query));
  return { rows: rows.slice(query.offset, query.offset + query.limit), total: rows.length };
}

function matches(filter: SimFilter, value: string): boolean {
  return filter.operator === 'is' ? filter.clauses.includes(value) : filter.clauses.some((c) => value.includes(c));
}

function comparator(query: SimQuery): (a: ResultRow, b: ResultRow) => number {
  const timeIndex = query.dimensions.indexOf('time:day');
  const order: Array<[(r: ResultRow) => number | string, 'asc' | 'desc']> = query.orderBy
    ? query.orderBy.map(([name, dir]) => {
        const m = query.metrics.indexOf(name as never);
        const d = query.dimensionNames.indexOf(name);
        return [m >= 0 ? (r: ResultRow) => r.metrics[m] : (r: ResultRow) => r.dimensions[d], dir];
      })
    : timeIndex >= 0
      ? [[(r) => r.dimensions[timeIndex], 'asc']]
      : [[(r) => r.metrics[0], 'desc']];
  return (a, b) => {
    for (const [value, dir] of order) {
      const [x, y] = [value(a), value(b)];
      if (x !== y) return (x < y ? -1 : 1) * (dir === 'asc' ? 1 : -1);
    }
    return JSON.stringify(a.dimensions) < JSON.stringify(b.dimensions) ? -1 : 1;
  };
}
