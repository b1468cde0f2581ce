import sharp from 'sharp';
import { ProviderError } from './errors';

/** The image-import limits of the media library (src/marketing/media/errors.ts): 25 MB and 32 megapixels. */
export const MAX_GENERATED_IMAGE_BYTES = 25 * 1024 * 1024;
export const MAX_GENERATED_IMAGE_PIXELS = 32_000_000;

export type GeneratedMimeType = 'image/png' | 'image/jpeg' | 'image/webp';

export interface ImageLimits {
  maxBytes: number;
  maxPixels: number;
}

export interface CheckedImage {
  mimeType: GeneratedMimeType;
  width: number;
  height: number;
}

const WHAT = 'the image API';

/**
 * What a provider's decoded image really is, read from its bytes: PNG, JPEG or WebP within the limits, every pixel
 * decoded once so a truncated answer is refused here rather than on a page later. Over a limit: image_too_large;
 * anything else wrong: image_bad_response. Neither is retryable.
 */
export async function checkGeneratedImage(bytes: Buffer, limits: ImageLimits): Promise<CheckedImage> {
  if (bytes.length > limits.maxBytes) {
    throw tooLarge(`an image of ${bytes.length} bytes; at most ${limits.maxBytes} are accepted`);
  }
  const sniffed = sniff(bytes);
  if (!sniffed) throw badImage('an answer that is not a PNG, JPEG or WebP image');
  let meta: sharp.Metadata;
  try {
    // Only the header: the pixel rule below answers with the real size before any decoding.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw badImage('an image that does not decode');
  }
  const { width, height } = meta;
  if (!width || !height || mimeOf(meta.format) !== sniffed) throw badImage('an image that does not decode');
  if (width * height > limits.maxPixels) {
    throw tooLarge(`an image of ${width}×${height} pixels; at most ${limits.maxPixels / 1_000_000} megapixels are accepted`);
  }
  try {
    await sharp(bytes, { limitInputPixels: limits.maxPixels, failOn: 'error' }).stats();
  } catch {
    throw badImage('an image that does not decode');
  }
  return { mimeType: sniffed, width, height };
}

function sniff(bytes: Buffer): GeneratedMimeType | undefined {
  if (bytes.length < 12) return undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return undefined;
}

function mimeOf(format: string | undefined): GeneratedMimeType | undefined {
  return format === 'png' ? 'image/png' : format === 'jpeg' ? 'image/jpeg' : format === 'webp' ? 'image/webp' : undefined;
}

const tooLarge = (what: string) => new ProviderError('image', 'image_too_large', `${WHAT} answered ${what}`, false, 200);
const badImage = (what: string) => new ProviderError('image', 'image_bad_response', `${WHAT} answered ${what}`, false, 200);
