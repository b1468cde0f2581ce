import type { Summary } from './stats';

/** One comparison of the cluster scenario: a figure, what it is compared with, both measured in the same run. */
export interface ClusterRow {
  figure: string;
  ours: Summary;
  baselineLabel: string;
  baseline: Summary;
}

const rate = (s: Summary) => (Number.isFinite(s.perSecond) ? s.perSecond.toFixed(1) : 'n/a');

/** The rows as one table: figure, its rate, the baseline and its rate, the ratio (figure ÷ baseline). */
export function printClusterTable(title: string, rows: ClusterRow[]): void {
  const figureWidth = Math.max(6, ...rows.map((r) => r.figure.length));
  const baselineWidth = Math.max(8, ...rows.map((r) => r.baselineLabel.length));
  const line = (cells: string[]) =>
    `  ${cells[0].padEnd(figureWidth)}  ${cells[1].padStart(8)}   ${cells[2].padEnd(baselineWidth)}  ${cells[3].padStart(8)}   ${cells[4].padStart(5)}`;
  console.log(`\n${title}`);
  console.log(line(['figure', 'per s', 'baseline', 'per s', 'ratio']));
  for (const r of rows) {
    console.log(line([r.figure, rate(r.ours), r.baselineLabel, rate(r.baseline), (r.ours.perSecond / r.baseline.perSecond).toFixed(2)]));
  }
}
