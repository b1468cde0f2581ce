// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.
import { MAX_STAGES } from './journeyService';
import { MAX_QUOTE, MAX_RESULTS, MAX_TESTIMONIALS } from './gridSchemas';

export const listMarketingJourneysDescription =
  'A journey map is an ordered list of stages; a content item names one in `journey_id` and a stage in `journey_stage`. Answers `{ data, total, page, limit }`, newest first; `search` matches part of the name, ignoring case. `page` defaults to 1, `limit` to 25 (maximum 100).';

export const updateMarketingJourneyDescription =
  'Partial: an absent field stays. `stages`, when sent, replaces the whole list in the order sent. Content items keep their `journey_stage` text when a stage is renamed or removed; match them again after a rename.';

export const deleteMarketingJourneyDescription =
  'Content items that name the journey keep existing with `journey_id` (and `customer_journey`) null; their `journey_stage` text stays.';

export const invalidReferenceError =
  'A row `id` in `results` or `testimonials` is not a row of this grid; `field` names it (e.g. `results.2.id`). Nothing is written.';

export const listMarketingGridsDescription =
  'A before/after grid holds measurable results (metric, before, after, unit) and testimonials (quote, attribution, consent); a content item names one in `before_after_grid_id`, and case studies take their numbers and quotes from it. Answers `{ data, total, page, limit }`, newest first, each grid with its rows; `search` matches part of the name, ignoring case. `page` defaults to 1, `limit` to 25 (maximum 100).';

export const createMarketingGridDescription = `\`name\` is required. \`results\` (at most ${MAX_RESULTS}) and \`testimonials\` (at most ${MAX_TESTIMONIALS}) are optional lists kept in the order sent; every row gets an \`id\`. \`before\` and \`after\` are numbers with at most 4 decimal places (more is 400 rather than silently rounded). A quote is at most ${MAX_QUOTE} characters; \`consent\` defaults to false. Honours \`Idempotency-Key\`.`;

export const updateMarketingGridDescription =
  "Partial: an absent field or list stays. `results` and `testimonials`, when sent, each replace that list in the order sent: a row sent with the `id` of one of this grid's rows keeps that id (citations in case studies stay valid), a row without `id` is new, and rows not sent are removed (`[]` empties the list). Every row is written as sent: an absent `unit` or `attribution` is null and an absent `consent` is false, also for a kept row. An `id` that is not one of this grid's rows is 400 `invalid_reference`; a repeated `id` is 400 `validation_failed`. Nothing is written on any error.";

export const deleteMarketingGridDescription =
  'Its results and testimonials go with it. Content items that name the grid keep existing with `before_after_grid_id` (and `before_after_grid`) null.';

export const listMarketingAvatarsDescription =
  'Customer avatars (personas) ground content: a content item names one in `avatar_id`. Answers `{ data, total, page, limit }`, newest first; `search` matches part of the name, ignoring case. `page` defaults to 1, `limit` to 25 (maximum 100).';

export const createMarketingAvatarDescription =
  '`name` is required; `description` and `attributes` are optional. Honours `Idempotency-Key`.';

export const updateMarketingAvatarDescription =
  'Partial: an absent field stays. `attributes`, when sent, replaces the stored object as a whole. An empty body changes nothing and answers the avatar.';

export const createMarketingJourneyDescription = `\`name\` and \`stages\` (1..${MAX_STAGES}, in order, names unique ignoring case, each at most 255 characters) are required. A repeated stage name is 400 naming \`body.stages.N.name\`. Honours \`Idempotency-Key\`.`;
