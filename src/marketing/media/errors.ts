import { ApiError } from '../../http/errors';

export const MAX_IMAGE_BYTES = 25 * 1024 * 1024;
/** "Upscale capped at 32 megapixels": no stored image is larger than this (decimal megapixels). */
export const MAX_IMAGE_PIXELS = 32_000_000;

export const mediaAssetNotFound = () => new ApiError(404, 'media_asset_not_found', 'media asset not found');
export const mediaFileNotFound = () => new ApiError(404, 'media_not_found', 'media file not found');
export const imageNotAttached = () =>
  new ApiError(404, 'image_not_attached', 'no image with this asset_id is attached to this content item');

export const fileTooLarge = () => new ApiError(413, 'file_too_large', `the image is larger than ${MAX_IMAGE_BYTES} bytes (25 MB)`);
export const unsupportedImage = (what: string) =>
  new ApiError(415, 'unsupported_image', `${what}; send a JPEG, PNG, WebP, GIF or AVIF image`);
export const invalidImage = () =>
  new ApiError(400, 'invalid_image', 'the file looks like an image but could not be decoded (truncated or corrupt)');
export const imageTooLarge = (width: number, height: number) =>
  new ApiError(
    400,
    'image_too_large',
    `the image is ${width}×${height} pixels; at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels are accepted`,
    { details: { width, height, max_pixels: MAX_IMAGE_PIXELS } },
  );

/** A rule on a field that its schema cannot check (an upload's parts, the merged tag count), reported like a field failure. */
export function fieldError(path: string, message: string): ApiError {
  return new ApiError(400, 'validation_failed', `invalid request: ${path}: ${message}`, { errors: [{ path, message }] });
}
