import type { Config } from '../../config';

/** What a topic handler may need besides the database (the worker's configuration). */
export interface TopicEnv {
  config: Config;
}

/** One verified, deduplicated delivery as the shop's workflow hands it to a topic handler. */
export interface DeliveryContext {
  accountId: string;
  connectionId: string;
  shopDomain: string;
  webhookId: string;
  topic: string;
  /** When the receiver accepted it (ISO 8601). */
  receivedAt: string;
  payload: unknown;
}

export type HandlerOutcome =
  | { outcome: 'processed'; detail?: Record<string, unknown> }
  | { outcome: 'ignored'; detail?: Record<string, unknown> }
  | { outcome: 'failed'; code: string; message: string };

/**
 * A delivery its handler refuses for what it carries (no order id, no contract id): recorded as failed at once,
 * never retried — a retry would carry the same payload. Anything else a handler throws is retried by the workflow.
 */
export class DeliveryRejected extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'DeliveryRejected';
  }
}

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A platform id (number or string) as text; null when absent or unusable. */
export function idText(v: unknown): string | null {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  if (typeof v === 'string' && v.trim() !== '' && v.length <= 200) return v.trim();
  return null;
}

export const textOrNull = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
