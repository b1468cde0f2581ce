import { ACCEPTED_JOB_HEADERS } from '../accepted';

/** The paragraph that documents `Prefer` on every route that starts a job and waits for it. */
export const PREFER_DOC =
  "`Prefer` (RFC 7240) sets this request's wait: `wait=N` waits at most N seconds for the result, never past the " +
  "route's own wait bound (the default; a longer wait is cut to it); `respond-async` (or `wait=0`) answers 202 right " +
  'after the start; `respond-async, wait=N` waits up to N seconds, then answers 202. `Preference-Applied` names what ' +
  'was honoured: `wait=<seconds waited at most>`, and `respond-async` on a 202. An unknown or invalid preference is ignored.';

/** The `Preference-Applied` response header of those routes, for their OpenAPI responses. */
export const PREFERENCE_APPLIED_HEADER = {
  'Preference-Applied': 'The `Prefer` preferences honoured (`wait=N`, `respond-async`); absent when none was.',
};

/** The headers of their 202: where to poll the job, and the preferences honoured. */
export const ACCEPTED_JOB_START_HEADERS = { ...ACCEPTED_JOB_HEADERS, ...PREFERENCE_APPLIED_HEADER };
