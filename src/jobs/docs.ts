// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.

export const routesSummary = 'A job: status, live progress, result or coded error, and a link to its run in the Temporal UI.';

export const routesDescription =
  "`progress` is the job's own report while it runs (null when it reports none or does not answer within 1.5 s) " +
  'and null once it closed. `result` is set when completed; `error` `{code, message}` when failed.';

export const routesDescription2 =
  'Answers 202 with the job once Temporal has the request; the job winds down on its own and then reads ' +
  '`status: canceled` (`cancel_requested` is true meanwhile). Repeating while it winds down answers 202 again; ' +
  'a job that already closed (completed, failed, canceled …) is 409 `job_not_running`.';

export const routesDescription3 = 'Cancellation requested; the job as it is now';
