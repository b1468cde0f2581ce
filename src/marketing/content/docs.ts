// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.

export const listMarketingContentAgentSummary =
  'List content items (agent): also by grounding, journey stage and publish date, sorted by update or publish.';

export const listMarketingContentVersionsDescription =
  'One version per change: version 1 is the create, each later write that changes the item adds the next ' +
  'number. A version carries the fields it changed, who changed it (user, agent key or system) and a snapshot of ' +
  'the item as the API returned it. Answers `{ data, total, page, limit }` (limit default 25, at most 100). ' +
  'Deleting the item deletes its versions.';

export const getMarketingContentAgentSummary = 'Get a content item (agent): adds url, url_source and scheduled_publish.';

export const writeRules =
  'Ids (avatar_id, journey_id, before_after_grid_id, category_id) are checked against your account before ' +
  "anything is written (400 `invalid_reference`). With a journey, `journey_stage` must be one of its map's stages " +
  '(matched ignoring case, stored as the map spells it; 400 otherwise). A `cms_link` must name a website project of ' +
  "your account (`/api/projects`; another account's answers like " +
  'an unknown one) and a collection on the site that project resolves to, read from the platform through the snapshot ' +
  'cache: otherwise 400 `invalid_reference`, also when the project resolves to no site. A link naming the stored ' +
  'project and collection is not re-checked. A platform failure during the check keeps its code (502, 504). `settings` is merged into the stored object key by key (a key sent ' +
  'as null is removed); a settings object with only `distribution_plan` leaves its siblings alone. A schedule request ' +
  '(`scheduled_publish_at` different from the stored one) needs a `cms_link` (409 `not_linked`) and a future instant; ' +
  '`cancel_scheduled_publish: true` clears it. A future date on a linked item whose `deploy_target` is not `none` is held by the ' +
  "item's publish workflow (kind `content-publish`), which publishes it at that time; the write commits only after the workflow " +
  'accepted the change (503 `temporal_unavailable` and nothing written when the job engine cannot be reached; 409 ' +
  '`schedule_publishing` while the publish runs). Unlinking or `deploy_target: none` cancels the workflow and keeps the date ' +
  'recorded only. On a project whose content source is the platform CMS, the first schedule of an item without a site entry ' +
  'creates the entry as a draft (`cms_link.item_id`), never live before the time. `published_at` is read-only: stamped the first time `status` becomes ' +
  '`published`. Each change writes a version row (see the versions route).';

export const updateRules =
  'An absent key leaves the field as it is; null clears it (null on scheduled_publish_at changes nothing: ' +
  'use cancel_scheduled_publish). Read-only members of the item (id, the { id, name } objects, timestamps, url …) may ' +
  'be echoed back and are ignored. A write that changes nothing writes no version and keeps updated_at.';

export const createMarketingContentDescription =
  `\`title\` is required; \`status\` defaults to \`draft\`, \`content_type\` to \`blog_post\`, \`deploy_target\` to ` +
  `\`production\`. When both are sent, the top-level \`target_keyword\` wins over \`settings.target_keyword\`; ` +
  `either one is stored in the column and mirrored into settings. ${writeRules} Honours Idempotency-Key.`;

export const putMarketingContentDescription =
  `${updateRules} A keyword typed into \`settings.target_keyword\` (one that differs from the stored ` +
  'keyword) wins over the echoed top-level `target_keyword`; when only the top-level one differs, it is taken; ' +
  `both end equal. ${writeRules}`;

export const patchMarketingContentAgentDescription = `${updateRules} The top-level \`target_keyword\` wins over \`settings.target_keyword\`; both end equal. ${writeRules}`;
