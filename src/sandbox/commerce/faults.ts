/** Failures injected on demand: the next matching request(s) fail the chosen way instead of being served. */

export type FaultKind = '5xx' | 'timeout' | 'malformed' | '429';

export interface FaultSpec {
  /** A string matches when the request path (without query) contains it; a RegExp is tested against that path. */
  path: RegExp | string;
  kind: FaultKind;
  /** How many matching requests fail; default 1. `Infinity` keeps failing until `clearFaults()`. */
  times?: number;
  /** For '5xx': the status; default 503. */
  status?: number;
  /** For 'timeout': how long the request is held before a 504; default the simulator's `timeoutHoldMs`. */
  holdMs?: number;
  /** For '429': the Retry-After seconds; default 2. */
  retryAfter?: number;
}

interface ArmedFault extends FaultSpec {
  remaining: number;
}

export class FaultList {
  private armed: ArmedFault[] = [];

  add(fault: FaultSpec): void {
    const times = fault.times ?? 1;
    if (!(times > 0)) throw new Error('commerce simulator: fault times must be positive');
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

function matches(pattern: RegExp | string, path: string): boolean {
  if (typeof pattern === 'string') return path.includes(pattern);
  pattern.lastIndex = 0; // a /g or /y regex keeps state between test() calls
  return pattern.test(path);
}

/** Truncated JSON served with a JSON content type and 200, the way a proxy cut-off looks to a client. */
export const MALFORMED_BODY = '{"errors":null,"data":[{"id":51000000';
