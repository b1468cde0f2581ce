// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.

export const getMarketingContentReviewsDescription =
  'Answers `{ status, latest, history, total, page, limit }`: `status` is `pending` before any review, then follows the latest decision (any reviewer may overturn an earlier one; editing the item does not reset it). `latest` is the newest review or null; `history` pages through every review newest first (`page` default 1, `limit` default 25, maximum 100).';

export const submitMarketingContentReviewDescription =
  "Body `{ decision, note? }`; `note` is required with `request_changes`. The reviewer is the caller (a user or an agent key). Each submission is added to the history and becomes the item's status. Answers 201 `{ review, status }`.";
