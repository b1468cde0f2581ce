import type { ScheduleEntry } from '../../src/temporal/schedules';

/** The schedule table the test app runs with (the product's own table is filled by later issues). */
export function testSchedules(): ScheduleEntry[] {
  return [];
}
