import type { ErrorSpec } from '../../http/route';
import { operationResultSchema } from './resultJson';

/** Long OpenAPI prose of the site platform operation routes, kept out of the route declarations. */

export const RESULT = {
  200: {
    description:
      'The operation answered: `{ action, result }` with the platform body as result. Reads served by the CMS snapshot cache (collection list and definitions 10 minutes, item lists 60 seconds; successful CMS writes mark them stale) also carry `snapshot { kind, cached, fetched_at }`.',
    schema: operationResultSchema,
  },
};

export const ERRORS: ErrorSpec[] = [
  {
    status: 400,
    code: 'unknown_action | wrong_verb | validation_failed | invalid_platform_request',
    description:
      'Unknown action, read sent as POST or write as GET, or invalid parameters (also when they make no valid platform request). ' +
      'A parameter the operation does not take is refused, never dropped: `errors` names each at its path (`bogusParam`, `items.0.fieldDta`), and nothing is sent or audited.',
  },
  { status: 401, code: 'platform_auth', description: 'The platform rejected the stored token (`upstreamStatus` 401).' },
  { status: 402, code: 'not_enterprise_plan_site', description: 'An Enterprise-only endpoint on a non-Enterprise workspace.' },
  { status: 403, code: 'platform_forbidden', description: 'The platform refused the call for another reason than a missing scope.' },
  {
    status: 404,
    code: 'site_not_found | project_not_found | webhook_not_found | resource_not_found',
    description:
      "Not one of the account's sites or projects, or (webhook_update) not a webhook of that site; a target missing on the platform answers the platform's own `*_not_found` code (e.g. collection_not_found), else resource_not_found.",
  },
  {
    status: 409,
    code: 'write_locked | write_unconfirmed | ecommerce_not_enabled | forms_require_republish | conflict',
    description:
      'Target lock not acquired (safe to retry), lock window closed mid-write (re-read first), or a coded conflict from the platform.',
  },
  {
    status: 412,
    code: 'missing_scopes | confirm_required | oauth_required | secondary_locale_required | site_platform_not_connected',
    description: 'A gate refused the operation.',
  },
  { status: 413, code: 'payload_too_large', description: "asset_upload: the file is over the platform's 10 MB, or the body over 14 MB." },
  {
    status: 424,
    code: 'asset_upload_incomplete | snippet_apply_failed | webhook_update_incomplete',
    description:
      'A composite failed after its first step (asset_id or script_id names what exists; for webhook_update, new_webhook_id is registered and old_webhook_id still needs webhook_delete); run it again under a new Idempotency-Key to finish.',
  },
  { status: 429, code: 'rate_limited | publish_cooldown', description: 'Carries retry_after_seconds.' },
  { status: 422, code: 'platform_validation', description: 'The platform refused the payload; `errors` lists its field problems.' },
  {
    status: 500,
    code: 'platform_client_misconfigured',
    description: "The service's site platform client options are invalid (a deployment fault).",
  },
  { status: 502, code: 'platform_upstream', description: 'Platform 5xx or network failure.' },
  { status: 504, code: 'platform_timeout', description: 'No platform answer inside the timeout.' },
];

export const AGENT_OP =
  'One registry operation per request: `action` plus its parameters (query on GET, JSON body on POST). ' +
  "`project_id` is optional; `site_id` must be one of the account's sites and routes any operation (also one whose platform call names no site). " +
  'Any other parameter the operation does not declare is 400 `validation_failed` naming it. ' +
  'The key needs `site_platform:read` for a read (GET) and `site_platform:write` for a write (POST); a read-only key only reads. ' +
  'Every POST of a slot-claiming write takes an ' +
  'idempotency slot keyed by Idempotency-Key, or by a hash of the request when no key is sent: a retry replays the answer.';

export const BUILDER_OP =
  'Same payload as the agent route. Session, or the service secret in x-agent-secret (which may name the ' +
  'audit actor with X-Agent-Actor-Label: workflow:<workflowId>:<runId>; the workflow id may itself contain colons, the run id is the ' +
  "last segment). The service secret acts for the project's owner (a project belongs to one account); " +
  'X-Account-Id, when sent, must name that account, else 404 project_not_found. A POST claims an idempotency slot only with Idempotency-Key.';

export const CMS_CAPABILITIES =
  '`provider` is the content source (native until project_cms_provider_set switches it), not the host. ' +
  "`external_platform` and `project_type` name the host, from the project's hosting (`kind`): `platform_hosted` is `site_platform` and `external_site`; " +
  '`service_hosted` is null and `native_site`, whatever the content source. `site_platform_connected` says whether a site platform connection resolves for the project; ' +
  "`site_id` is the content source's site, else the bound site. `can_publish_items_to_site` is true only with the platform CMS as source. " +
  "The service secret acts for the project's owner, as on the builder operation route.";

export const BUILDER_PROJECT_NOT_FOUND: ErrorSpec = {
  status: 404,
  code: 'project_not_found',
  description: 'Not a project of the account (the service secret: no such project, or X-Account-Id names another account).',
};
