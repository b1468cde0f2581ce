/** An event as stored in an area's outbox table; its id travels in the `webhook-id` header. */
export interface StoredEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
  created_at: Date;
}

/** The JSON body every endpoint receives: `{ type, created_at, data }`. */
export function eventBody(event: Pick<StoredEvent, 'type' | 'data' | 'created_at'>): string {
  return JSON.stringify({ type: event.type, created_at: event.created_at.toISOString(), data: event.data });
}
