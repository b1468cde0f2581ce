import { defineSchedule, type ScheduleEntry } from '../../src/temporal/schedules';
import { quickJobContract } from '../workflows/quickJob.contract';

/** The schedule table the test app runs with (the product's own table is filled by later issues). */
export function testSchedules(): ScheduleEntry[] {
  return [
    defineSchedule(quickJobContract, {
      name: 'test-quick-sweep',
      cron: '0 3 1 1 *', // once a year: never fires during a test run; tests use `POST /api/cron/test-quick-sweep`
      args: [{ value: 'swept' }],
      overlap: 'SKIP',
      description: 'Test sweep: returns its input at once.',
    }),
  ];
}
