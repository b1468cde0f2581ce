import type { Summary } from './stats';

export interface ScenarioResult {
  name: string;
  ours: Summary;
  baseline: Summary;
  baselineLabel: string;
  /** Absent for a scenario reported for context only. */
  goalRatio?: number;
  /** `p99`: the figures are latencies and the ratio is ours ÷ baseline at p99, lower is better (goal: ratio ≤ goalRatio). */
  compare?: 'throughput' | 'p99';
  /** Further facts of the run, printed under the ratio (e.g. what was checked after the load). */
  notes?: string[];
}

const f = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/** Our figure, the baseline measured in the same run, and the ratio (throughput ours / baseline). */
export function printResult(r: ScenarioResult): void {
  if (r.compare === 'p99') return printLatencyResult(r);
  const ratio = r.ours.perSecond / r.baseline.perSecond;
  const line = (label: string, s: Summary) =>
    `  ${label.padEnd(44)} ${f(s.perSecond).padStart(9)} ops/s   p50 ${f(s.p50Ms, 2).padStart(7)} ms   p95 ${f(s.p95Ms, 2).padStart(7)} ms   n=${s.count} errors=${s.errors}`;
  console.log(`\n${r.name}`);
  console.log(line('workyard', r.ours));
  console.log(line(`baseline: ${r.baselineLabel}`, r.baseline));
  const goal = r.goalRatio === undefined ? '(no goal: context)' : `(goal ≥ ${r.goalRatio}) ${ratio >= r.goalRatio ? 'met' : 'NOT met'}`;
  console.log(`  ratio ${f(ratio, 2)} ${goal}`);
  for (const note of r.notes ?? []) console.log(`  ${note}`);
}

/** Latency figures (e.g. lateness past a due time): p50, p95, p99, and the p99 ratio ours ÷ baseline, lower is better. */
function printLatencyResult(r: ScenarioResult): void {
  const ratio = r.ours.p99Ms / r.baseline.p99Ms;
  const line = (label: string, s: Summary) =>
    `  ${label.padEnd(44)} p50 ${f(s.p50Ms, 0).padStart(6)} ms   p95 ${f(s.p95Ms, 0).padStart(6)} ms   p99 ${f(s.p99Ms, 0).padStart(6)} ms   n=${s.count} errors=${s.errors}`;
  console.log(`\n${r.name}`);
  console.log(line('workyard', r.ours));
  console.log(line(`baseline: ${r.baselineLabel}`, r.baseline));
  const goal = r.goalRatio === undefined ? '(no goal: context)' : `(goal ≤ ${r.goalRatio}) ${ratio <= r.goalRatio ? 'met' : 'NOT met'}`;
  console.log(`  p99 ratio ${f(ratio, 2)} ${goal}`);
  for (const note of r.notes ?? []) console.log(`  ${note}`);
}
