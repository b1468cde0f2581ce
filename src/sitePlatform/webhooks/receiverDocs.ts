import { EVENT_COMMIT_MAX_ROWS, STAMP_INTERVAL_MS, TARGET_CACHE_TTL_MS, UNVERIFIED_ROWS_PER_HOUR } from './receiver';
import { MAX_JSON_DEPTH } from '../../http/jsonDepth';
import { MAX_SKEW_MS } from './receiverSignature';
import { RELAY_BUSY_MS, RELAY_IDLE_MS } from './relay';
import { FAN_OUT_MAX_PROJECTS } from './fanOut';

/** Largest delivery body accepted (413 above). Platform deliveries are far smaller. */
export const SITE_WEBHOOK_BODY_LIMIT_BYTES = 1024 * 1024;

export const RECEIVER_DESCRIPTION = [
  "The one endpoint of a site platform connection's webhooks (doc2 Events). The URL is the connection's receiver URL",
  "`{PUBLIC_APP_URL}/api/webhooks/site-platform/{connectionId}/{urlToken}`; the body is the platform's delivery",
  '`{"triggerType": "…", "payload": {…}}`. OAuth registrations are signed: `x-webflow-timestamp` (ms since the epoch) and',
  "`x-webflow-signature` (hex HMAC-SHA256 of `<timestamp>:<rawBody>` keyed by the OAuth app's client secret — the",
  "connection's own client, else the service-wide `SITE_PLATFORM_CLIENT_SECRET`). Site-token registrations are unsigned.",
  '',
  'Steps, in order: (1) the raw body is read byte for byte, at most 1 MiB (413 above); (2) an unknown connection (or a',
  'malformed id), a disconnected one, or one without a URL token hash: 404, nothing written; (3) the SHA-256 of the URL',
  'token is compared in constant time with the stored hash: 401 on a mismatch, nothing written; (4) OAuth connections:',
  `the signature is checked in constant time and the timestamp must be within ${MAX_SKEW_MS / 60_000} minutes either way; otherwise 401`,
  `and a bounded unverified row (reason, size and SHA-256 of the body — never the body) — at most ${UNVERIFIED_ROWS_PER_HOUR} per connection`,
  'per hour, counted under a per-connection lock. Site-token deliveries are recorded with verification `url_token`;',
  '(5) a body that is not the envelope of a registered trigger, nests arrays and objects deeper than',
  `${MAX_JSON_DEPTH} levels, whose payload names no \`siteId\`, or whose site the connection does not reach: 200`,
  '`{ignored: true}`, nothing written; (6) recorded once per (account, site, event id) —',
  'the event id is the submission id for `form_submission` (payload `id`, unless it is the form element id: then the',
  'SHA-256 of the form name and submission time), else the SHA-256 of `<triggerType>:<rawBody>` — a duplicate answers 200',
  '`{received: true, replay: true}` and is not fanned out again; (7) `last_received_at` of the matching subscriptions is',
  `stamped (best effort, at most every ${STAMP_INTERVAL_MS / 1000} s per connection, site and trigger and replica) and 200 \`{received: true}\`.`,
  '',
  'Form submissions are written to the forms ledger in the same transaction as the event row (the ledger fires',
  '`form_submitted`). The only non-200 after step 6 is 503 `ledger_unavailable`: the ledger write failed, the event row',
  'was rolled back, and the platform redelivers (3 times, ten minutes apart) — the redelivery is not a replay. A',
  'submission with no id, no name and no timestamp is permanent: reported in the log, the event kept, answered 200.',
  '',
  'Bound: the 200 waits only for the connection lookup (one query, shared by concurrent deliveries of the connection and',
  `reused for ${TARGET_CACHE_TTL_MS / 1000} s: a disconnect or a re-registration is seen at most that late per replica),`,
  `the checks and the durable insert — grouped with concurrent deliveries into one statement (at most ${EVENT_COMMIT_MAX_ROWS} rows) —`,
  'never for Temporal or a platform call. The fan-out is workflow work: a relay in the API process hands recorded',
  `events to the site's workflow \`site-platform-events:<accountId>:<siteId>\` at once when idle, within ${RELAY_BUSY_MS} ms during a burst (idle poll ${RELAY_IDLE_MS} ms), which reaches`,
  `at most ${FAN_OUT_MAX_PROJECTS} projects bound to the site. While Temporal is down deliveries are still answered 200 and wait in the record.`,
  '',
  'The 401 and 404 bodies are the generic error body (`unauthorized`, `not_found`): which check failed is never',
  'answered. The body, the signature and the URL token are never logged.',
].join('\n');
