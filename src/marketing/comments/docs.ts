// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.

export const listMarketingContentCommentsDescription =
  'Answers `{ data, total, page, limit }`; `page` defaults to 1, `limit` to 25 (maximum 100).';

export const addMarketingContentCommentDescription =
  'Body `{ body }`. The author is the caller: the user of a session token, or the agent key. Answers 201 with the comment.';
