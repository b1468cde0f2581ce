import { FaultList as KitFaultList } from '../kit/faultList';

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

export class FaultList extends KitFaultList<FaultSpec> {
  constructor() {
    super('commerce simulator');
  }
}

/** Truncated JSON served with a JSON content type and 200, the way a proxy cut-off looks to a client. */
export const MALFORMED_BODY = '{"errors":null,"data":[{"id":51000000';
