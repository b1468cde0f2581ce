// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.

export const categoryNameTakenError = 'Another category of the account has this name, ignoring case (`field`: `name`). Nothing is written.';

export const categorySlugTakenError =
  'Another category of the account has this slug, sent or derived (`field`: `slug`). Nothing is written.';

export const listMarketingCategoriesDescription =
  'Categories group content items (`category_id`, a filter of the content list). Answers `{ data, total, page, limit }` in alphabetical order of name, ignoring case; `search` matches part of the name. `page` defaults to 1, `limit` to 25 (maximum 100).';

export const createMarketingCategoryDescription =
  '`name` is required; `slug` is derived from it when absent ("Case Studies & Wins" → `case-studies-wins`, "Café" → `cafe`). A name or slug the account already uses is 409. Honours `Idempotency-Key`.';

export const updateMarketingCategoryDescription =
  'Partial: an absent field stays. Renaming keeps the slug, so links built on it keep working; send `slug` to change it, or `slug: null` to derive it again from the name.';
