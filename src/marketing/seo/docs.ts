// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.

export const checkContentSeoSummary = 'Pre-publish SEO check of a content item: ok, score and findings, each naming the field to fix.';
