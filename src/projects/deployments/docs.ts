import { BASE_URL_RULE } from './baseUrl';
import { REVALIDATION_TIMEOUT_MS } from './revalidate';
import { SECRET_PREFIX } from './secret';

/** Long OpenAPI prose of the deployment routes, kept out of the route declarations. */

export const ACCESS =
  'Session token: any role reads, owner or admin writes (403 `forbidden_role` otherwise). ' +
  'Agent twin under `/api/agent/projects/{id}/deployments`: `projects:read` reads, `projects:write` writes; a read-only key only reads.';

export const ONLY_SERVICE_HOSTED =
  'Only a `service_hosted` project has deployments: a `platform_hosted` one answers 409 ' +
  '`project_not_service_hosted` (the site platform deploys and caches it); a project switched to `platform_hosted` keeps its ' +
  'deployments, unreachable here and sent no revalidations, until it is switched back. ' +
  "Another account's project, or a malformed or unknown id, answers 404 `project_not_found`.";

/** The revalidation protocol a deployed site implements (also in docs/projects.md). */
export const PROTOCOL =
  "When the project's shop changes its catalogue (doc3: products/create, products/update, products/delete, " +
  'collections/update), the service POSTs `{"tags":["commerce-products","commerce-collections"]}` to `<base_url>/api/revalidate` of every ' +
  'deployment of every service-hosted project whose commerce settings resolve to that shop (override → its connection; inherit → the ' +
  'account default). The request carries `Content-Type: application/json` and `Workyard-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` ' +
  `computed over \`<t>.<exact body>\` with the whole secret (\`${SECRET_PREFIX}…\`, as UTF-8) as key: a site recomputes it, compares in ` +
  'constant time, refuses a `t` older than five minutes, then revalidates the tags (Next.js `revalidateTag`) and answers 2xx. ' +
  `Fire-and-forget: one attempt per change, ${REVALIDATION_TIMEOUT_MS / 1000} s deadline, redirects not followed, never retried; a failure never ` +
  'fails the webhook delivery. Each attempt is recorded (commerce cache invalidations, `target` = the deployment id) with its outcome: ' +
  '`revalidated` (2xx), `failed_<status>`, `timeout`, `unreachable`, `blocked_host` (the host is not public) or `secret_unreadable`; ' +
  'the deployment shows the last one in `last_revalidation_outcome`.';

export const BASE_URL = `\`base_url\` is ${BASE_URL_RULE} A trailing slash is dropped.`;

export const LIST =
  `The project's deployments (at most one per environment: production, staging, dev), production first; never their secrets. ` +
  `${ONLY_SERVICE_HOSTED} ${ACCESS}`;

export const CREATE =
  `Adds the project's deployment in one environment (409 \`deployment_environment_taken\` when it has one). ${BASE_URL} ` +
  `The answer carries the revalidation secret (\`${SECRET_PREFIX}…\`) once, like a webhook signing secret: it is stored sealed (AES-256-GCM) ` +
  'and never shown again; `secret_hint` shows its last four characters. Not idempotent: a replayed response would have to keep the secret ' +
  `in the clear. ${PROTOCOL} ${ONLY_SERVICE_HOSTED} ${ACCESS}`;

export const GET = `One deployment (never its secret). An unknown or malformed deployment id answers 404 \`deployment_not_found\`. ${ONLY_SERVICE_HOSTED} ${ACCESS}`;

export const PATCH = `Changes \`base_url\`; the secret stays. ${BASE_URL} ${ONLY_SERVICE_HOSTED} ${ACCESS}`;

export const DELETE = `Deletes the deployment; its site receives no more revalidations. ${ONLY_SERVICE_HOSTED} ${ACCESS}`;

export const ROTATE =
  `Replaces the revalidation secret at once and answers the new one, once; posts are signed with the new one from then on, so ` +
  `update the site's secret right away. ${ONLY_SERVICE_HOSTED} ${ACCESS}`;
