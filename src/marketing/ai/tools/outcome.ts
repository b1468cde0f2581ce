import { ApiError, errorBody } from '../../../http/errors';
import type { DataUpdate, ToolOutcome } from '../types';

/** What the model may read of one answer: enough for a page of items, never a whole site export. */
export const MAX_CONTENT_CHARS = 16_000;

function cut(value: unknown): { content: string; truncated: boolean } {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? null);
  return text.length > MAX_CONTENT_CHARS
    ? { content: text.slice(0, MAX_CONTENT_CHARS), truncated: true }
    : { content: text, truncated: false };
}

export function okOutcome(status: number, body: unknown, dataUpdates: DataUpdate[] = []): ToolOutcome {
  return { status: 'ok', http_status: status, ...cut(body), data_updates: dataUpdates };
}

/** The coded body the same call's route would answer. */
export function errorOutcome(err: ApiError): ToolOutcome {
  return { status: 'error', http_status: err.status, ...cut(errorBody(err)), data_updates: [] };
}

/** A route answer that was not 2xx (a replayed slot keeps the first status) is an error outcome with its body. */
export function routeOutcome(status: number, body: unknown, dataUpdates: DataUpdate[]): ToolOutcome {
  return status >= 200 && status < 300 ? okOutcome(status, body, dataUpdates) : { ...okOutcome(status, body), status: 'error' };
}

/** Runs a tool body: a coded ApiError is the model's to read; anything else is thrown so the activity retries. */
export async function answering(run: () => Promise<ToolOutcome>): Promise<ToolOutcome> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError) return errorOutcome(err);
    throw err;
  }
}

export const toolNotAvailable = (name: string, known: boolean) =>
  errorOutcome(
    new ApiError(
      known ? 403 : 404,
      'tool_not_available',
      known ? `${name} is not available to this chat's caller` : `there is no tool ${name}`,
    ),
  );
