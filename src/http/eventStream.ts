import { PassThrough } from 'node:stream';
import type Koa from 'koa';
import type { Context } from 'koa';

/** One Server-Sent Event; `data` is sent as one line of JSON. */
export interface ServerSentEvent {
  event: string;
  id: string;
  data: unknown;
}

export interface EventStream {
  /** The response body (hand it to the route's answer). */
  body: PassThrough;
  /** Aborted when the client leaves, the stream ends or the server stops. */
  signal: AbortSignal;
  send(event: ServerSentEvent): void;
  end(): void;
}

export const EVENT_STREAM_HEADERS: Record<string, string> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache',
  'X-Accel-Buffering': 'no',
};

const KEEP_ALIVE_MS = 15_000;

interface OpenStreams {
  closing: boolean;
  streams: Set<() => void>;
}

const openStreamsByApp = new WeakMap<Koa, OpenStreams>();

function openStreamsOf(app: Koa): OpenStreams {
  let open = openStreamsByApp.get(app);
  if (!open) openStreamsByApp.set(app, (open = { closing: false, streams: new Set() }));
  return open;
}

/**
 * Ends every event stream of the app and every one opened from now on. An event stream never goes idle, so a drain
 * that waits for in-flight requests would wait it out: the server calls this as it stops taking connections.
 */
export function endEventStreams(app: Koa): void {
  const open = openStreamsOf(app);
  open.closing = true;
  for (const end of [...open.streams]) end();
}

/** Opens a `text/event-stream` body: `retry:` first, a `: keep-alive` comment every 15 s, ended by either side. */
export function openEventStream(ctx: Context, retryMs: number, keepAliveMs = KEEP_ALIVE_MS): EventStream {
  const body = new PassThrough();
  const controller = new AbortController();
  const open = openStreamsOf(ctx.app);
  const keepAlive = setInterval(() => write(': keep-alive\n\n'), keepAliveMs);

  function write(text: string) {
    if (!body.writableEnded && !body.destroyed) body.write(text);
  }
  function end() {
    if (!body.writableEnded && !body.destroyed) body.end();
    stop();
  }
  function stop() {
    clearInterval(keepAlive);
    open.streams.delete(end);
    controller.abort();
  }

  // Koa destroys the body when the response closes, also when the client leaves mid-stream.
  body.once('close', stop);
  ctx.res.once('close', stop);
  ctx.req.socket.setNoDelay(true);
  open.streams.add(end);
  write(`retry: ${retryMs}\n\n`);
  if (open.closing) end();

  return {
    body,
    signal: controller.signal,
    send: ({ event, id, data }) => write(`event: ${event}\nid: ${id}\ndata: ${JSON.stringify(data)}\n\n`),
    end,
  };
}
