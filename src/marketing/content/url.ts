import type { ContentItem } from './representation';

export interface ItemUrl {
  /** Public URL of the item on its site, or null while none is known. */
  url: string | null;
  /** Where `url` came from (e.g. the site platform's CMS entry), null with a null url. */
  url_source: string | null;
}

/**
 * The item's public URL. The site-platform integration (doc2) resolves it from the linked CMS entry; until that
 * lands no URL is known and both members are null.
 */
export function urlOf(_item: ContentItem): ItemUrl {
  return { url: null, url_source: null };
}

/** The schedule as the agent get reports it: null when nothing is scheduled. */
export interface ScheduledPublish {
  at: string;
  status: 'scheduled';
}

export function scheduledPublishOf(item: ContentItem): ScheduledPublish | null {
  return item.scheduled_publish_at ? { at: item.scheduled_publish_at, status: 'scheduled' } : null;
}
