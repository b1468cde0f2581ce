/** What a simulator handler answers: plain data, written to the socket by the simulator's server. */
export interface SimResponse {
  status: number;
  body?: unknown;
  /** Sent byte-for-byte instead of `body` (malformed-JSON faults). */
  raw?: string;
  headers?: Record<string, string>;
}

export function json(status: number, body: unknown, headers?: Record<string, string>): SimResponse {
  return { status, body, headers };
}
