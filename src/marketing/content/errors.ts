import { ApiError } from '../../http/errors';

export const contentNotFound = () => new ApiError(404, 'content_not_found', 'content item not found');

export { invalidReference } from '../../http/fieldErrors';

/** OpenAPI entries of the coded errors the content routes answer. */
export const errorSpecs = {
  notFound: {
    status: 404,
    code: 'content_not_found',
    description: 'No content item with this id in your account (also for a malformed id).',
  },
  invalidReference: {
    status: 400,
    code: 'invalid_reference',
    description:
      'avatar_id, journey_id, before_after_grid_id or category_id does not name a record of your account, cms_link.project_id is not a website project of your account, or cms_link.collection_id is not a collection on the site that project resolves to (`field` names it); nothing is written.',
  },
  notLinked: {
    status: 409,
    code: 'not_linked',
    description: 'A schedule request for an item with no cms_link; `link_step` names the step to take first. Nothing is written.',
  },
};

/** What a cms_link check answers when the site platform cannot (the codes of the site platform routes); nothing is written. */
export const linkCheckErrorSpecs = [
  {
    status: 412,
    code: 'site_platform_not_connected | missing_scopes',
    description: "Checking cms_link: no connection resolves for the project's site, or the grant lacks cms:read.",
  },
  {
    status: 429,
    code: 'rate_limited',
    description: "Checking cms_link: the connection's request budget is spent; carries retry_after_seconds.",
  },
  { status: 502, code: 'platform_upstream', description: 'Checking cms_link: platform 5xx or network failure.' },
  { status: 504, code: 'platform_timeout', description: 'Checking cms_link: no platform answer inside the timeout.' },
];
