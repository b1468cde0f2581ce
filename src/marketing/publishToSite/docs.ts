// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.

export const publishContentToSiteSummary =
  'Publish a content item to its site platform collection; returns the SEO check as warnings and seo_check.';

export const notLinkedError = 'The item has no cms_link; `link_step` names the step to take first. Nothing is written.';

export const contentSourceNativeError =
  "The linked project's content source is the service's own CMS; `fix_action` names project_cms_provider_set. Nothing is written.";

export const writeLockedError = 'Another publish of this item is running; safe to retry.';

export const rateLimitedError = "The connection's request budget is spent; carries retry_after_seconds.";
