/** The content item's type under its older module name; the shape and its mapper are in contentItemJson.ts. */
export type { ContentItem } from './contentItemJson';
