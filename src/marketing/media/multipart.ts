import busboy from 'busboy';
import { ApiError } from '../../http/errors';
import { fileTooLarge, fieldError } from './errors';

export interface UploadedFile {
  bytes: Buffer;
  /** The name the client gave the file (may be empty); never trusted for the type. */
  filename: string;
}

export interface MultipartForm {
  file: UploadedFile | null;
  fields: Record<string, string>;
}

export interface MultipartLimits {
  /** The one file part's name. */
  fileField: string;
  maxFileBytes: number;
  maxFields: number;
  maxFieldBytes: number;
}

const notMultipart = () => new ApiError(415, 'unsupported_media_type', 'send the upload as multipart/form-data');
const malformed = () => new ApiError(400, 'invalid_multipart', 'the multipart/form-data body is malformed');

/**
 * Parses a buffered multipart/form-data body: exactly one file part named `fileField` (its bytes capped at
 * `maxFileBytes`, 413 `file_too_large` above) and a few short text fields. The first problem found wins.
 */
export function parseMultipart(raw: Buffer, contentType: string, limits: MultipartLimits): Promise<MultipartForm> {
  if (!/^multipart\/form-data\s*;/i.test(contentType)) return Promise.reject(notMultipart());
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8', // browsers send file names as UTF-8
      limits: { files: 1, fileSize: limits.maxFileBytes, fields: limits.maxFields, fieldSize: limits.maxFieldBytes },
    });
  } catch {
    return Promise.reject(malformed()); // e.g. no boundary
  }

  return new Promise((resolve, reject) => {
    const form: MultipartForm = { file: null, fields: {} };
    let problem: ApiError | null = null;
    const fail = (err: ApiError) => {
      problem ??= err;
    };

    parser.on('file', (name, stream, info) => {
      if (name !== limits.fileField) {
        fail(fieldError(`body.${name}`, `unknown file part; send the image in the part named ${limits.fileField}`));
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(fileTooLarge()));
      stream.on('end', () => {
        form.file = { bytes: Buffer.concat(chunks), filename: info.filename ?? '' };
      });
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(fieldError(`body.${name}`, `must be at most ${limits.maxFieldBytes} bytes`));
      else if (name in form.fields) fail(fieldError(`body.${name}`, 'sent more than once'));
      else form.fields[name] = value;
    });
    parser.on('filesLimit', () => fail(fieldError(`body.${limits.fileField}`, 'send exactly one file')));
    parser.on('fieldsLimit', () => fail(fieldError('body', `at most ${limits.maxFields} text fields`)));
    parser.on('error', () => reject(problem ?? malformed()));
    parser.on('close', () => (problem ? reject(problem) : resolve(form)));
    parser.end(raw);
  });
}
