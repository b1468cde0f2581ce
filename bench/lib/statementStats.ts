import { existsSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from '../../src/db/knex';

/** What a bench child did since the last ask: statements sent by SQL text, and its CPU time (process.cpuUsage). */
export interface ChildStats {
  statements: Record<string, number>;
  cpuMs: number;
}

/**
 * In a bench child: counts the statements `db` sends, by SQL text; SIGUSR2 writes them and the CPU time used
 * since the last SIGUSR2 to `file`, then starts counting again (per-operation costs of a round).
 */
export function writeStatsOnSignal(db: Knex, file: string): void {
  const statements = new Map<string, number>();
  db.on('query', (q: { sql: string }) => statements.set(q.sql, (statements.get(q.sql) ?? 0) + 1));
  let since = process.cpuUsage();
  process.on('SIGUSR2', () => {
    const used = process.cpuUsage(since);
    since = process.cpuUsage();
    const stats: ChildStats = { statements: Object.fromEntries(statements), cpuMs: (used.user + used.system) / 1000 };
    statements.clear();
    writeFileSync(`${file}.tmp`, JSON.stringify(stats));
    renameSync(`${file}.tmp`, file);
  });
}

/** In the parent: asks the child `pid` for its stats (see writeStatsOnSignal). */
export async function readChildStats(pid: number, file: string): Promise<ChildStats> {
  if (existsSync(file)) unlinkSync(file);
  process.kill(pid, 'SIGUSR2');
  for (let waited = 0; waited < 5_000; waited += 10) {
    if (existsSync(file)) {
      const stats = JSON.parse(readFileSync(file, 'utf8')) as ChildStats;
      unlinkSync(file);
      return stats;
    }
    await sleep(10);
  }
  throw new Error(`bench child ${pid} wrote no stats to ${file}`);
}

/** Statements per operation, most frequent first, each shortened to its start. */
export function statementsPer(statements: Record<string, number>, operations: number, what: string): string[] {
  const total = Object.values(statements).reduce((t, n) => t + n, 0);
  return [
    `Postgres statements per ${what}: ${(total / operations).toFixed(2)}`,
    ...Object.entries(statements)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([sql, n]) => `  ${(n / operations).toFixed(3).padStart(7)}  ${sql.replace(/\s+/g, ' ').slice(0, 110)}`),
  ];
}

/** USER_HZ: /proc times are in ticks of 10 ms. */
export const TICK_MS = 1000 / 100;

/** The direct child process of this one whose command line contains `marker`. */
export function childPid(marker: string): number {
  for (const task of readdirSync(`/proc/${process.pid}/task`)) {
    for (const pid of readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean)) {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) return Number(pid);
    }
  }
  throw new Error(`no child process running ${marker}`);
}

/** CPU time (ms) of a process so far, from /proc (user + system, and its reaped children's). */
export function procCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime, stime, cutime, cstime are fields 14–17 of stat: indexes 11–14 after the command.
    return fields.slice(11, 15).reduce((t, v) => t + Number(v), 0) * TICK_MS;
  } catch {
    return 0; // the process is gone
  }
}
