import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type Koa from 'koa';
import type { Knex } from '../../src/db/knex';

/** What one kind of request cost the server process, over the windows when only that kind was in flight. */
export interface WindowCost {
  requests: number;
  cpuMs: number;
  statements: number;
  wallMs: number;
}

export interface CostFile {
  baseline: string | undefined;
  pid: number;
  windows: Record<string, WindowCost>;
}

/**
 * BENCH_COSTS_OUT=<dir> (the `costs` scenario): attributes this server process's CPU (process.cpuUsage) and the
 * statements its knex sent to the kind of request in flight — `<side> <method> <path>[?op]`, one kind at a time, as
 * the alternating rounds run them; `mixed` when kinds overlap, `idle` when none is in flight (relays, timers) — and
 * writes the totals to <dir>/costs-<pid>.json when the process exits. Off (nothing installed) without the variable.
 */
export function installCostProbe(db: Knex, sides: Record<string, Koa>): void {
  const dir = process.env.BENCH_COSTS_OUT;
  if (!dir) return;
  const windows: Record<string, WindowCost> = {};
  const inflight = new Map<string, number>();
  let statements = 0;
  db.on('query', () => statements++);
  let last = { cpu: process.cpuUsage(), statements: 0, at: performance.now() };
  const current = () => {
    const kinds = [...inflight.entries()].filter(([, n]) => n > 0);
    return kinds.length === 0 ? 'idle' : kinds.length === 1 ? kinds[0][0] : 'mixed';
  };
  const windowOf = (kind: string) => (windows[kind] ??= { requests: 0, cpuMs: 0, statements: 0, wallMs: 0 });
  // Closes the window that ran since the last change of what is in flight.
  const tick = () => {
    const cpu = process.cpuUsage(last.cpu);
    const w = windowOf(current());
    const at = performance.now();
    w.cpuMs += (cpu.user + cpu.system) / 1000;
    w.statements += statements - last.statements;
    w.wallMs += at - last.at;
    last = { cpu: process.cpuUsage(), statements, at };
  };
  for (const [side, app] of Object.entries(sides)) {
    app.middleware.unshift(async (ctx, next) => {
      const op = typeof ctx.query.op === 'string' ? `?op=${ctx.query.op}` : '';
      const kind = `${side} ${ctx.method} ${side === 'ours' ? ctx.path.replace(/[0-9a-f-]{36}|wys?_[\w-]+/g, ':id') : '/'}${op}`;
      tick();
      inflight.set(kind, (inflight.get(kind) ?? 0) + 1);
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        tick();
        inflight.set(kind, inflight.get(kind)! - 1);
        windowOf(kind).requests++;
      };
      ctx.res.once('finish', finish);
      ctx.res.once('close', finish);
      await next();
    });
  }
  process.on('exit', () => {
    tick();
    const file: CostFile = { baseline: process.env.BENCH_BASELINE, pid: process.pid, windows };
    writeFileSync(path.join(dir, `costs-${process.pid}.json`), JSON.stringify(file));
  });
}
