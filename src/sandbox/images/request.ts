import sharp from 'sharp';
import type { Form } from './form';
import type { OutputFormat } from './render';

export type Endpoint = 'generations' | 'edits';

/** What the simulator recorded of one valid request. */
export interface ImageSimRequest {
  endpoint: Endpoint;
  model: string;
  prompt: string;
  /** As sent (`auto` included); the rendered size is `width`×`height`. */
  size: string;
  width: number;
  height: number;
  n: number;
  outputFormat: OutputFormat;
  /** Edits: the `image`/`image[]` parts, in order. */
  references: Array<{ filename: string; mimeType: string; bytes: number; width: number; height: number }>;
}

export interface RequestProblem {
  status: number;
  message: string;
  param: string | null;
  code: string | null;
}

interface Family {
  sizes: string[];
  defaultSize: string;
  maxPrompt: number;
  maxN: number;
  /** Most input images an edit takes; 0: no edits. */
  maxReferences: number;
  gpt: boolean;
}

/** The per-model rules of the public Images API reference. */
function family(model: string): Family | undefined {
  if (/^gpt-image/.test(model)) {
    return {
      sizes: ['1024x1024', '1536x1024', '1024x1536', 'auto'],
      defaultSize: 'auto',
      maxPrompt: 32_000,
      maxN: 10,
      maxReferences: 16,
      gpt: true,
    };
  }
  if (model === 'dall-e-3') {
    return {
      sizes: ['1024x1024', '1792x1024', '1024x1792'],
      defaultSize: '1024x1024',
      maxPrompt: 4000,
      maxN: 1,
      maxReferences: 0,
      gpt: false,
    };
  }
  if (model === 'dall-e-2') {
    return {
      sizes: ['256x256', '512x512', '1024x1024'],
      defaultSize: '1024x1024',
      maxPrompt: 1000,
      maxN: 10,
      maxReferences: 1,
      gpt: false,
    };
  }
  return undefined;
}

const KNOWN = new Set([
  'model', 'prompt', 'n', 'size', 'quality', 'style', 'user', 'response_format', 'output_format', 'output_compression',
  'background', 'moderation', 'input_fidelity', 'stream', 'partial_images', 'image', 'image[]', 'mask',
]); // prettier-ignore

const problem = (message: string, param: string | null, code: string | null = 'invalid_value', status = 400): RequestProblem => ({
  status,
  message,
  param,
  code,
});

/** Checks a generations body (JSON) or an edits form against the reference; a problem is answered as a 400. */
export async function readImageRequest(
  endpoint: Endpoint,
  input: Record<string, unknown>,
  form?: Form,
): Promise<ImageSimRequest | RequestProblem> {
  for (const name of Object.keys(input)) {
    if (!KNOWN.has(name) || (endpoint === 'generations' && /^(image|mask)/.test(name))) {
      return problem(`Unknown parameter: '${name}'.`, name, 'unknown_parameter');
    }
  }
  const model = input.model === undefined ? 'dall-e-2' : String(input.model);
  const rules = family(model);
  if (!rules) return problem(`Invalid value for 'model' = ${model.slice(0, 60)}.`, 'model');
  if (typeof input.prompt !== 'string' || input.prompt.trim() === '')
    return problem("Missing required parameter: 'prompt'.", 'prompt', 'missing_required_parameter');
  if (input.prompt.length > rules.maxPrompt) {
    return problem(
      `Invalid 'prompt': string too long. Expected a string with maximum length ${rules.maxPrompt}.`,
      'prompt',
      'string_above_max_length',
    );
  }
  const n = input.n === undefined ? 1 : Number(input.n);
  if (!Number.isInteger(n) || n < 1 || n > rules.maxN)
    return problem(`Invalid 'n': must be an integer from 1 to ${rules.maxN} for ${model}.`, 'n');
  const size = input.size === undefined ? rules.defaultSize : String(input.size);
  if (!rules.sizes.includes(size)) {
    return problem(`Invalid value: '${size.slice(0, 40)}'. Supported values are: ${rules.sizes.map((s) => `'${s}'`).join(', ')}.`, 'size');
  }
  const [width, height] = size === 'auto' ? [1024, 1024] : size.split('x').map(Number);
  if (rules.gpt && input.response_format !== undefined)
    return problem("Unknown parameter: 'response_format'.", 'response_format', 'unknown_parameter');
  if (!rules.gpt && input.response_format !== 'b64_json') {
    return problem('The simulator answers b64_json only: send response_format b64_json (it hosts no image URLs).', 'response_format');
  }
  if (input.stream !== undefined && input.stream !== false && input.stream !== 'false') {
    return problem('The simulator does not stream: leave stream out.', 'stream');
  }
  let outputFormat: OutputFormat = 'png';
  if (input.output_format !== undefined) {
    if (!rules.gpt) return problem("Unknown parameter: 'output_format'.", 'output_format', 'unknown_parameter');
    if (!['png', 'jpeg', 'webp'].includes(String(input.output_format))) {
      return problem(
        `Invalid value: '${String(input.output_format).slice(0, 20)}'. Supported values are: 'png', 'jpeg' and 'webp'.`,
        'output_format',
      );
    }
    outputFormat = input.output_format as OutputFormat;
  }
  const request: ImageSimRequest = { endpoint, model, prompt: input.prompt, size, width, height, n, outputFormat, references: [] };
  if (endpoint === 'edits') {
    const refs = await readReferences(form!, rules, model);
    if ('status' in refs) return refs;
    request.references = refs;
  }
  return request;
}

async function readReferences(form: Form, rules: Family, model: string): Promise<ImageSimRequest['references'] | RequestProblem> {
  if (rules.maxReferences === 0) return problem(`Image edits are not supported for ${model}.`, 'model');
  const images = form.files.filter((f) => f.field === 'image' || f.field === 'image[]');
  if (images.length === 0) return problem("Missing required parameter: 'image'.", 'image', 'missing_required_parameter');
  if (images.length > rules.maxReferences) return problem(`Invalid 'image': at most ${rules.maxReferences} images for ${model}.`, 'image');
  const refs: ImageSimRequest['references'] = [];
  for (const file of images) {
    if (file.truncated) return problem('Invalid image file: each image must be under 50 MB.', 'image', 'image_too_large');
    const accepted = rules.gpt ? ['image/png', 'image/jpeg', 'image/webp'] : ['image/png'];
    if (!accepted.includes(file.mimeType)) {
      return problem(
        `Invalid file 'image': unsupported mimetype ('${file.mimeType.slice(0, 40)}'). Supported file formats are ${accepted.join(', ')}.`,
        'image',
        'unsupported_file_mimetype',
      );
    }
    const meta = await sharp(file.bytes)
      .metadata()
      .catch(() => undefined);
    if (!meta?.width || !meta.height || `image/${meta.format}` !== file.mimeType) {
      return problem('Invalid image file or mode for image, please check your image file.', 'image', 'invalid_image_file');
    }
    refs.push({ filename: file.filename, mimeType: file.mimeType, bytes: file.bytes.length, width: meta.width, height: meta.height });
  }
  return refs;
}
