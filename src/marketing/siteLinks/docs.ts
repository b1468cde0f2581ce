import { CRAWL_MAX_FETCHES } from './crawl';
import { MAX_ITEMS_READ } from './contentItems';
import { SITE_LINKS_MAX } from './service';

export const siteLinksSummary = "List the live links of a website project's site: published content items and the site's pages.";

export const siteLinksDescription = [
  "Every link an agent may point to on the project's site, one record per URL, as `{ id, title, url, type, published_at, slug, source }`:",
  '',
  `- \`content_item\` (type \`post\`): the account's published items whose cms_link names the project and that have a URL (the agent get's \`url\` rule; id is the item id). Items without one are counted in \`posts.without_url\`. At most the newest ${MAX_ITEMS_READ} items are read (a note says when more exist).`,
  "- `page_list` (type `page`): for a platform-hosted project whose site is known (content source, connection or binding), the site's page list read live through the site platform (drafts, archived pages, branches and CMS template pages left out; id is the platform page id; url is the site domain — first custom domain, else `<short_name>.webflow.io` — plus the page's published path). When the platform cannot be read (not connected, rate limited, down) the account's page index (kept by page webhooks and site publishes) answers instead, with a `page_list_unavailable` note.",
  `- \`crawl\`: where no page list exists (a service-hosted project, a platform-hosted one without a site, or a site with no listable page), a bounded crawl of \`https://<project host>\`: \`/sitemap.xml\` first (a urlset, or a sitemap index whose child sitemaps on the site's host are read, one level deep), else the links of the home page. Only the site's own host (and hosts its redirects land on) is kept; files (images, PDFs, scripts …) are left out. At most ${CRAWL_MAX_FETCHES} documents, each with a timeout and a size cap, redirects checked hop by hop, and only public addresses (never loopback, private or link-local ones). id is the URL; type is \`post\` for paths under /blog/, /post(s)/, /article(s)/, /news/, /insights/ or /case-studies/, else \`page\`; title is the link text (null from a sitemap).`,
  '',
  'A URL found by several sources is listed once, by the first of content_item, page_list, crawl (scheme and host compared case-insensitively, a trailing slash ignored). `published_at` is set for content items only (the platform page list and the crawl carry no publish time).',
  '',
  `\`limit\` defaults to ${SITE_LINKS_MAX} and may not exceed it (above it, or below 1, is 400 \`validation_failed\`, like every strict list of this API). \`total\` counts every distinct link found, \`capped\` is true when \`limit\` cut the list. \`posts.listed\` and \`pages.listed\` count the records of each type in \`data\`.`,
  '',
  '`notes` lists what could not be read and what was used instead, each `{ code, message }`: `page_list_unavailable`, `page_list_truncated`, `page_list_empty`, `site_domain_unknown`, `no_site`, `no_host`, `sitemap_missing`, `sitemap_unreadable`, `crawl_failed` (including a host refused for resolving to a non-public address), `crawl_deadline`, `crawl_budget_reached`, `content_items_truncated`. A failing source never fails the request.',
  '',
  "project_id is required (400 `project_id_required` when absent or empty). An id that is not a project of your account — unknown, another account's, or not a uuid at all — is 404 `project_not_found`: the spec lists no other error for it, and a malformed id names no project just as an unknown one does.",
].join('\n');
