import { FaultList as KitFaultList } from '../kit/faultList';

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

export class FaultList extends KitFaultList<FaultSpec> {
  constructor() {
    super('site platform simulator');
  }
}

/** Truncated JSON served with a JSON content type and 200, the way a proxy cut-off looks to a client. */
export const MALFORMED_BODY = '{"items":[{"id":"5f0c8c9e1c9d440000e8d8c1","fieldData":{"name":"Trunc';
