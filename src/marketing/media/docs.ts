// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.
import { MAX_IMAGE_PIXELS } from './errors';

export const listMarketingMediaDescription =
  'Answers `{ data, total, page, limit }`; `page` defaults to 1, `limit` to 25 (maximum 100). Filters combine (AND). The bytes are not included: fetch `url`.';

export const updateMarketingMediaSummary = 'Tag a media asset (e.g. `brand_reference` for approved brand imagery) or set its alt text.';

export const updateMarketingMediaDescription =
  "`tags` are added to the asset's tags, never replacing them; `remove_tags` removes; naming the same tag in both is 400. An empty body changes nothing and answers the asset. The brand image profile uses up to three assets tagged `brand_reference`, newest first.";

export const invalidMultipartError = 'The multipart body is malformed (e.g. no boundary).';

export const deleteMarketingContentImageDescription =
  'Body `{ asset_id }`. Removes the image from the item only: the asset stays in the media library with its tags and its URL keeps working (delete it from pages that embed it). Answers `{ content_id, asset_id, detached: true }`; detaching an image that is not attached (again, or never) is 404 `image_not_attached`.';

export const getMediaFileDescription = `No credential: the 43-character token (256 random bits) is the access key, and the file name must match too. Files never change, so they are cached for a year (\`immutable\`); \`ETag\` is the SHA-256 and \`If-None-Match\` answers 304. Only JPEG, PNG, WebP, GIF and AVIF are stored (never SVG), served with their decoded type, \`X-Content-Type-Options: nosniff\` and a sandboxing CSP. No stored image exceeds ${MAX_IMAGE_PIXELS / 1_000_000} megapixels.`;

export const imageTooLargeError = `The image is over ${MAX_IMAGE_PIXELS / 1_000_000} megapixels; \`width\`, \`height\` and \`max_pixels\` say by how much.`;

export const uploadMarketingContentImageDescription = [
  'Send `multipart/form-data` with exactly one file part named `file` and, optionally, text fields `alt_text` (at most 1,000 characters) and `placement` (free text naming where the image goes, e.g. `hero` or a heading; at most 255). Any other part is 400.',
  `Images only: JPEG, PNG, WebP, GIF or AVIF, at most 25 MB (26,214,400 bytes) and ${MAX_IMAGE_PIXELS / 1_000_000} megapixels (width × height as displayed). The type and size are read by decoding the image, never from the file name or declared type; every pixel is decoded once so a truncated file is refused now. SVG is refused (it can carry scripts). The original bytes are stored unchanged.`,
  'The asset is tagged `content_image` and `content:<item id>` and served at its unguessable public `url`. Each upload creates a new asset (no de-duplication). Answers 201 `{ asset, content_id, placement }`.',
].join('\n\n');
