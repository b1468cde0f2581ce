import { z } from 'zod';

/** The JSON a job is shown as (`GET /api/jobs/{id}`, job lists, 202 answers); jobView.ts builds it from a Temporal run. */
export const JOB_STATUSES = ['running', 'completed', 'failed', 'canceled', 'terminated', 'timed_out'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const JobProgressSchema = z
  .object({
    phase: z.string(),
    done: z.number(),
    total: z.number().nullable(),
    warnings: z.array(z.string()),
  })
  .meta({ id: 'JobProgress', description: 'What the job reports while it runs (its `progress` query).' });

const jobFields = {
  id: z.string().describe('The job id, which is also the Temporal workflow id: `<kind>:<account>:<key>`.'),
  kind: z.string().describe('What the job does (the `JobKind` search attribute).'),
  status: z.enum(JOB_STATUSES),
  run_id: z.string().describe('The Temporal run shown (the latest run of this id).'),
  content_id: z.string().nullable(),
  connection_id: z.string().nullable(),
  project_id: z.string().nullable(),
  tags: z
    .array(z.string())
    .describe('The tags the job was started with (the `Tags` search attribute); `GET /api/jobs?tag=` filters on them.'),
  metadata: z
    .record(z.string(), z.string())
    .describe("The metadata the job was started with: the caller's own strings, shown back as sent ({} when none)."),
  replay_of: z.string().nullable().describe('The id of the job this one replays; null for a job started by its own request.'),
  created_at: z.string().describe('ISO 8601; when the run started.'),
  closed_at: z.string().nullable().describe('ISO 8601; null while running.'),
  links: z.object({
    temporal_ui: z.string().nullable().describe('This run in the Temporal UI; null when no UI URL is configured.'),
  }),
};

export const JobSummarySchema = z
  .object(jobFields)
  .meta({ id: 'JobSummary', description: 'A job as listed; fetch it by id for progress, result and error.' });

export const JobSchema = z
  .object({
    ...jobFields,
    cancel_requested: z.boolean().describe('Cancellation was requested (the job may still be winding down).'),
    progress: JobProgressSchema.nullable().describe(
      'Live while running (null when the job reports none or does not answer within 1.5 s); null once closed.',
    ),
    result: z.unknown().describe('The workflow result when completed; null otherwise.'),
    error: z
      .object({ code: z.string(), message: z.string() })
      .nullable()
      .describe('When failed: the stable code and message the job failed with (`job_failed` for anything without a code); null otherwise.'),
  })
  .meta({ id: 'Job', description: 'A job: one Temporal workflow execution started for an account.' });

export type Job = z.infer<typeof JobSchema>;
export type JobSummary = z.infer<typeof JobSummarySchema>;
