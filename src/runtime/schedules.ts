import type { Client } from '@temporalio/client';
import { SCHEDULES } from '../app/schedules';
import { syncSchedules } from '../temporal/scheduleSync';

/** Makes Temporal's Schedules match the table in src/app/schedules.ts; answers one line per outcome. */
export async function syncAllSchedules(client: Client, taskQueue: string): Promise<{ result: Record<string, unknown>; summary: string }> {
  const result = await syncSchedules(client, SCHEDULES, taskQueue);
  return { result: { ...result }, summary: describeSync(result) };
}

export function describeSync(result: Record<string, unknown>): string {
  return Object.entries(result)
    .map(([outcome, value]) =>
      Array.isArray(value) ? `${outcome}: ${value.length}${value.length ? ` (${value.join(', ')})` : ''}` : `${outcome}: ${String(value)}`,
    )
    .join(', ');
}
