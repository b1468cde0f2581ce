import type { ScheduleEntry } from '../../src/temporal/schedules';

/** The schedule table the test app runs with (the product's own table is filled by later issues). */
export function testSchedules(): ScheduleEntry[] {
  return [
    {
      name: 'test-quick-sweep',
      cron: '0 3 1 1 *', // once a year: never fires during a test run; tests use `POST /api/cron/test-quick-sweep`
      workflowType: 'quickJobWorkflow',
      args: [{ value: 'swept' }],
      overlap: 'SKIP',
      description: 'Test sweep: returns its input at once.',
    },
  ];
}
