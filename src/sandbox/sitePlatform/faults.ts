/** Failures injected on demand: the next matching request(s) fail the chosen way instead of being served. */

export type FaultKind = '5xx' | 'timeout' | 'malformed';

export interface FaultSpec {
  kind: FaultKind;
  /** How many matching requests fail; default 1. */
  times?: number;
  /** Only requests whose path contains this string (or matches this RegExp); default every request. */
  path?: RegExp | string;
  /** For '5xx': the status; default 500. */
  status?: number;
}

interface ArmedFault extends FaultSpec {
  remaining: number;
}

export class FaultList {
  private armed: ArmedFault[] = [];

  add(fault: FaultSpec): void {
    const times = fault.times ?? 1;
    if (!(times > 0)) throw new Error('site platform simulator: fault times must be positive');
    this.armed.push({ ...fault, remaining: times });
  }

  /** The first armed fault matching the path, consumed once. */
  take(path: string): FaultSpec | undefined {
    const fault = this.armed.find((f) => matches(f.path, path));
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.armed.splice(this.armed.indexOf(fault), 1);
    return fault;
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

/** Truncated JSON served with a JSON content type and 200, the way a proxy cut-off looks to a client. */
export const MALFORMED_BODY = '{"items":[{"id":"5f0c8c9e1c9d440000e8d8c1","fieldData":{"name":"Trunc';
