// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.

export const createCommerceDevStoreDescription =
  'Owner or admin. Answers 501 `provisioning_not_configured` while COMMERCE_PARTNER_API_TOKEN or COMMERCE_PARTNER_ORG_ID (numeric) is not set, and 501 `provisioning_not_implemented` when both are set: the Partner API call is not built yet.';
