/** The shapes of a started job that the app's deps also name (TemporalDeps.jobIndex); types only. */

/** The optional search attributes a job can carry besides AccountId and JobKind. */
export interface JobSearchAttributes {
  ContentId?: string;
  ConnectionId?: string;
  ProjectId?: string;
}

/** What the caller attached to a job (`tags`, `metadata`, `callback_url` of a job-starting request). */
export interface JobStartOptions {
  /** The `Tags` search attribute (`GET /api/jobs?tag=`) and memo key `tags`. */
  tags?: string[];
  /** Memo key `metadata`: the caller's own strings, shown back on the job. */
  metadata?: Record<string, string>;
  /** Memo key `callbackUrl`: where the job's outcome is posted (src/alerts delivers it). */
  callbackUrl?: string;
}

/** A run the API just started or attached to, as the job index records it (TemporalDeps.jobIndex). */
export interface StartedRun {
  run_id: string;
  job_id: string;
  account_id: string;
  kind: string;
  searchAttributes?: JobSearchAttributes;
  options?: JobStartOptions;
  replayOf?: unknown;
}
