import { defineWorkflow } from './defineWorkflow';

// The `contentImages` workflow's contract and shapes, shared by the workflow, its activities and the routes. No I/O.

/** The spec's runtime bound of an image run. */
export const IMAGE_RUN_BUDGET_MS = 300_000;
/** Section images one run plans at most (the hero comes on top). */
export const MAX_SECTION_IMAGES = 8;

/** `hero` (the featured image) or `section:<n>`, n the 0-based index of the H2 in the body when planned. */
export type ImageSlot = 'hero' | `section:${number}`;

export interface ContentImagesInput {
  accountId: string;
  contentId: string;
  /** The API's public origin (media-store URLs are `<publicBaseUrl>/media/<token>/<file>`). */
  publicBaseUrl: string;
  /** Plan a hero even when the item already has a featured image (it is replaced). */
  replaceFeatured: boolean;
  /** Section images at most (0..MAX_SECTION_IMAGES). */
  maxSections: number;
  requestId: string;
}

/** One heading of the body: its 0-based index among the H2s, its text, and whether an image already sits below it. */
export interface BodySection {
  index: number;
  heading: string;
  has_image: boolean;
}

export type Planner = 'model' | 'heuristic';

export interface PlannedImage {
  slot: ImageSlot;
  /** The H2's text (null for the hero): placement finds the heading again by text, then by index. */
  heading: string | null;
  /** The H2's 0-based index when planned (null for the hero). */
  headingIndex: number | null;
  prompt: string;
  alt: string;
  size: '1536x1024' | '1024x1024' | '1024x1536';
}

export interface SkippedHeading {
  index: number;
  heading: string;
  reason: 'has_image' | 'adds_no_information' | 'over_limit';
}

/** The first step's answer: what will be rendered, and where it will be hosted. */
export interface ImagePlan {
  planner: Planner;
  /** The hero first when planned, then sections in body order. */
  images: PlannedImage[];
  skipped: SkippedHeading[];
  /** `site_platform`: the project's content source is the platform CMS (site_id set); else the service's media store. */
  host: { kind: 'site_platform'; projectId: string; siteId: string } | { kind: 'media_store' };
  /** The item's linked project (its brand guide applies), else null (the account's guide). */
  projectId: string | null;
  /** Sections rendered at once after the hero (the worker's IMAGE_RENDER_CONCURRENCY, recorded for replay). */
  concurrency: number;
  /** The worker's IMAGE_TIMEOUT_MS (one render attempt's bound). */
  renderTimeoutMs: number;
  warnings: string[];
}

export interface RenderRequest {
  accountId: string;
  contentId: string;
  /** `<workflowId>:<slot>`: the allowance unit's key and the output row's key. */
  unitKey: string;
  image: PlannedImage;
  host: ImagePlan['host'];
  publicBaseUrl: string;
  /** The project whose brand profile the prompt carries (the item's linked project), else the account's. */
  projectId: string | null;
}

/** A rendered, hosted image (content_image_outputs). */
export interface RenderedImage {
  unitKey: string;
  url: string;
  hostedOn: 'site_platform' | 'media_store';
  /** The media library row; null when the image is hosted but that row could not be written. */
  assetId: string | null;
  platformAssetId: string | null;
  width: number;
  height: number;
  mimeType: string;
  /** Warnings of this image (e.g. the library row could not be written). */
  warnings: string[];
}

/** Why a render did not give an image. `quota_exhausted`: no unit could be reserved (nothing charged). */
export interface RenderFailure {
  code: string;
  message: string;
}

export interface PlaceRequest {
  accountId: string;
  contentId: string;
  image: PlannedImage;
  rendered: RenderedImage;
  /** The hero replaces an existing featured image only when the run was asked to. */
  replaceFeatured: boolean;
  /** Audit: the run (`workflow:<workflowId>`) on the version row. */
  workflowId: string;
}

export type PlaceOutcome =
  { placed: true; version: number | null } | { placed: false; reason: 'heading_gone' | 'image_present' | 'featured_present' | 'item_gone' };

export interface GeneratedAsset {
  slot: ImageSlot;
  heading: string | null;
  asset_id: string | null;
  url: string;
  alt: string;
  width: number;
  height: number;
  hosted_on: 'site_platform' | 'media_store';
  platform_asset_id: string | null;
  placed: boolean;
  tags: string[];
}

export interface ContentImagesResult {
  run_id: string;
  content_id: string;
  planner: Planner;
  assets: GeneratedAsset[];
  featured_image: { url: string; alt: string } | null;
  skipped: SkippedHeading[];
  /** Units charged (consumed) and refunded by this run. */
  charged: number;
  refunded: number;
  warnings: string[];
}

/** One image run: `content-images:<account>:<content>:<Idempotency-Key>`. */
export const contentImagesContract = defineWorkflow<[ContentImagesInput], ContentImagesResult>('contentImages', 'content-images');
