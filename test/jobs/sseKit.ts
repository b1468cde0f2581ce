import { harness } from '../helpers/harness';

export interface SseEvent {
  event: string;
  id: string;
  data: any;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** The body of a response that is not an event stream. */
  text: string;
  retry: number | null;
  /** The next event, or null once the server ended the stream. */
  next(timeoutMs?: number): Promise<SseEvent | null>;
  /** Every event until the server ends the stream. */
  rest(timeoutMs?: number): Promise<SseEvent[]>;
  close(): void;
}

/** A real HTTP client of an event stream, parsing `text/event-stream` itself (as an EventSource would). */
export async function openEvents(
  path: string,
  options: { token?: string; lastEventId?: string; baseUrl?: string; headers?: Record<string, string> } = {},
): Promise<SseStream> {
  const controller = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream', ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.lastEventId) headers['last-event-id'] = options.lastEventId;
  const res = await fetch(`${options.baseUrl ?? harness().baseUrl}${path}`, { headers, signal: controller.signal });
  const streaming = res.status === 200 && (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
  const text = streaming ? '' : await res.text();
  const reader = streaming ? res.body!.getReader() : null;
  const decoder = new TextDecoder();
  let buffer = '';
  let ended = !streaming;
  const stream: SseStream = {
    status: res.status,
    headers: res.headers,
    text,
    retry: null,
    async next(timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const cut = buffer.indexOf('\n\n');
        if (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const fields: Record<string, string> = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            const colon = line.indexOf(':');
            fields[line.slice(0, colon)] = line.slice(colon + 1).replace(/^ /, '');
          }
          if (fields.retry !== undefined) stream.retry = Number(fields.retry);
          if (fields.data === undefined) continue;
          return { event: fields.event ?? 'message', id: fields.id ?? '', data: JSON.parse(fields.data) };
        }
        if (ended || !reader) return null;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no event within ${timeoutMs} ms`);
        let timer: NodeJS.Timeout | undefined;
        const chunk = await Promise.race([
          reader.read(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no event within ${timeoutMs} ms`)), left);
          }),
        ]).finally(() => clearTimeout(timer));
        if (chunk.done) ended = true;
        else buffer += decoder.decode(chunk.value, { stream: true });
      }
    },
    async rest(timeoutMs = 15_000) {
      const events: SseEvent[] = [];
      for (let e = await stream.next(timeoutMs); e; e = await stream.next(timeoutMs)) events.push(e);
      return events;
    },
    close() {
      controller.abort();
    },
  };
  return stream;
}
