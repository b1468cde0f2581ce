import type { Summary } from './stats';

export interface ScenarioResult {
  name: string;
  ours: Summary;
  baseline: Summary;
  baselineLabel: string;
  /** Absent for a scenario reported for context only. */
  goalRatio?: number;
  /** Further facts of the run, printed under the ratio (e.g. what was checked after the load). */
  notes?: string[];
}

const f = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/** Our figure, the baseline measured in the same run, and the ratio (throughput ours / baseline). */
export function printResult(r: ScenarioResult): void {
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
