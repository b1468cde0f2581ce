/** What every simulator's injected fault has: where it applies and how many requests it takes. */
export interface PathFault {
  /** A string matches when the request path contains it; a RegExp is tested against the path. Absent: every path. */
  path?: RegExp | string;
  /** How many matching requests fail; default 1. `Infinity` keeps failing until cleared. */
  times?: number;
}

/** Failures armed on demand: the next matching request(s) take the fault instead of being served. */
export class FaultList<F extends PathFault> {
  private armed: Array<{ fault: F; remaining: number }> = [];

  constructor(private readonly simulator: string) {}

  add(fault: F): void {
    const times = fault.times ?? 1;
    if (!(times > 0)) throw new Error(`${this.simulator}: fault times must be positive`);
    this.armed.push({ fault, remaining: times });
  }

  /** The first armed fault matching the path, consumed once. */
  take(path: string): F | undefined {
    const entry = this.armed.find((a) => matches(a.fault.path, path));
    if (!entry) return undefined;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.armed.splice(this.armed.indexOf(entry), 1);
    return entry.fault;
  }

  clear(): void {
    this.armed = [];
  }
}

function matches(pattern: RegExp | string | undefined, path: string): boolean {
  if (pattern === undefined) return true;
  if (typeof pattern === 'string') return path.includes(pattern);
  pattern.lastIndex = 0; // a /g or /y regex keeps state between test() calls
  return pattern.test(path);
}
