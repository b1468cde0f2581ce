// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.

export const startCommerceConnectSummary =
  'Start connecting a shop: get the URL to send the merchant to.';

export const commerceOAuthCallbackSummary =
  'OAuth callback: the platform redirects the merchant here after approval.';
