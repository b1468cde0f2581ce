/** Where a site link came from. */
export type LinkSource = 'content_item' | 'page_list' | 'crawl';

/** One link of a project's site (doc1 "Site link"). */
export interface SiteLink {
  id: string;
  title: string | null;
  url: string;
  type: 'post' | 'page';
  published_at: string | null;
  slug: string | null;
  source: LinkSource;
}

/** Something that could not be read, and what the answer used instead. */
export interface Note {
  code: string;
  message: string;
}
