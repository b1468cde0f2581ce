import busboy from 'busboy';

export interface FormFile {
  field: string;
  filename: string;
  mimeType: string;
  bytes: Buffer;
  /** Over the per-file limit: the rest was dropped. */
  truncated: boolean;
}

export interface Form {
  fields: Record<string, string>;
  files: FormFile[];
}

/** A buffered multipart/form-data body, or undefined when it does not parse (no boundary, broken framing). */
export function parseForm(raw: Buffer, contentType: string, maxFileBytes: number): Promise<Form | undefined> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { 'content-type': contentType }, defParamCharset: 'utf8', limits: { fileSize: maxFileBytes } });
  } catch {
    return Promise.resolve(undefined);
  }
  return new Promise((resolve) => {
    const form: Form = { fields: {}, files: [] };
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      const file: FormFile = { field, filename: info.filename ?? '', mimeType: info.mimeType, bytes: Buffer.alloc(0), truncated: false };
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        file.truncated = true;
      });
      stream.on('end', () => {
        file.bytes = Buffer.concat(chunks);
        form.files.push(file);
      });
    });
    parser.on('field', (name, value) => {
      form.fields[name] = value;
    });
    parser.on('error', () => resolve(undefined));
    parser.on('close', () => resolve(form));
    parser.end(raw);
  });
}
