import sharp from 'sharp';
import { imageTooLarge, invalidImage, MAX_IMAGE_PIXELS, unsupportedImage } from './errors';

/** The formats the library takes, by the media type the decoder reports. SVG is refused: it can carry scripts. */
const FORMATS = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
} as const;

export type ImageMimeType = keyof typeof FORMATS;

export interface ImageFacts {
  mimeType: ImageMimeType;
  extension: (typeof FORMATS)[ImageMimeType];
  /** As displayed, after EXIF orientation (a portrait phone photo is taller than wide). */
  width: number;
  height: number;
}

/**
 * Magic numbers of the accepted formats, checked before any decoder runs, so bytes of other formats (SVG, TIFF,
 * PDF …) never reach a parser at all.
 */
function sniff(bytes: Buffer): boolean {
  const ascii = (from: number, to: number) => bytes.subarray(from, to).toString('latin1');
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return true;
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return true;
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return true;
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return true;
  if (ascii(4, 8) === 'ftyp') return /avi[fs]/.test(ascii(8, 64)); // ISO-BMFF: an AVIF brand among the first brands
  return false;
}

/**
 * Reads the type and size from the image itself (never from the file name or the declared type) and decodes every
 * pixel once, so a truncated or corrupt file is refused here rather than broken on a page later.
 * 415 `unsupported_image` when it is not one of the accepted formats, 400 `invalid_image` when it does not decode,
 * 400 `image_too_large` above 32 megapixels.
 */
export async function inspectImage(bytes: Buffer): Promise<ImageFacts> {
  if (bytes.length < 12 || !sniff(bytes)) throw unsupportedImage('the file is not a JPEG, PNG, WebP, GIF or AVIF image');
  let meta: sharp.Metadata;
  try {
    // Only the header is read here, so no pixel limit yet: the 32 MP rule below answers with the real size.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw invalidImage();
  }
  const mimeType = meta.mediaType as ImageMimeType | undefined;
  if (!mimeType || !(mimeType in FORMATS)) throw unsupportedImage(`the file is ${meta.mediaType ?? meta.format}`);
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!width || !height) throw invalidImage();
  if (width * height > MAX_IMAGE_PIXELS) throw imageTooLarge(width, height);
  try {
    await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' }).stats();
  } catch {
    throw invalidImage();
  }
  return { mimeType, extension: FORMATS[mimeType], width, height };
}
