/** Long OpenAPI prose of the commerce project binding routes, kept out of the route declarations. */

export const PUT_SETTINGS =
  "Owner or admin. Replaces the whole settings object (an absent `storefront_api_version` clears it). The project must be one of your account's (`/api/projects`); another account's project answers 404 like a missing one. " +
  'Idempotent: concurrent PUTs of one project each answer 200, and the project keeps one settings object, the body of the last write.';

export const CONNECTION =
  "`inherit` → the account's connected default; `override` → the project's own connection while it is connected; `disabled` → none. `connection` is null with `reason` (`disabled`, `no_default_connection`, `connection_disconnected`) when there is none.";
