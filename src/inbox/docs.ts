// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.

export const listInboxItemsDescription =
  'Answers `{ data, total, page, limit }`, newest first. Filters `urgency`, `resolved` and `kind` combine (AND). ' +
  '`page` defaults to 1, `limit` to 25 (maximum 100). Items are written by the service (sweeps, alerts, failed webhook ' +
  'handlers, subscription billing failures), deduplicated: one open item per `dedup_key`.';

export const resolveInboxItemDescription =
  'Stamps `resolved_at` and answers the item. Idempotent: resolving a resolved item answers it unchanged ' +
  '(the first `resolved_at` stays). Once resolved, the same problem found again raises a new item.';
