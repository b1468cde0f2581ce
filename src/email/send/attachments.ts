import { detectMimeType } from 'nodemailer/lib/mime-funcs';
import { z } from 'zod';
import type { RelayAttachment } from './transport';

/**
 * The `attachments` of a send: files with base64 content, each a download or (with `content_id`) an inline part the
 * html shows as `cid:<content_id>`. The limits hold per message, on the decoded bytes.
 */
export const MAX_ATTACHMENTS = 20;
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
const MAX_FILENAME = 255;
const MAX_CONTENT_ID = 250;

/**
 * File types mailbox providers refuse to deliver (Gmail's list of blocked types): a message carrying one would bounce
 * or be dropped, so it is refused at send time.
 */
export const BLOCKED_EXTENSIONS: readonly string[] = (
  'ade adp apk appx appxbundle bat cab chm cmd com cpl diagcab diagcfg diagpack dll dmg ex ex_ exe hta ' +
  'img ins iso isp jar jnlp js jse lib lnk mde msc msi msix msixbundle msp mst nsh pif ps1 scr sct shb ' +
  'sys vb vbe vbs vhd vxd wsc wsf wsh xll'
).split(' ');
const BLOCKED = new Set(BLOCKED_EXTENSIONS);

// C0, DEL and C1 controls: a file name reaches MIME parameters and the recipient's file system.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// RFC 6838 §4.2 type and subtype names, then optional `; name=value` parameters (token or quoted-string values).
const NAME = '[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}';
const TOKEN = "[A-Za-z0-9!#$%&'*+.^_`|~-]+";
const MIME_TYPE = new RegExp(`^${NAME}/${NAME}(?:\\s*;\\s*${TOKEN}=(?:${TOKEN}|"[^"\\\\\\u0000-\\u001f\\u007f]*"))*$`);
// RFC 2392: a Content-ID is an RFC 5322 msg-id without its angle brackets, `id-left@id-right` (dot-atom-text each).
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const CONTENT_ID = new RegExp(`^${ATOM}(?:\\.${ATOM})*@${ATOM}(?:\\.${ATOM})*$`);

/** Why a file name is refused (path, control characters, a blocked type), or null; SMTP submission may use it too. */
export function filenameProblem(name: string): string | null {
  if (name.length === 0 || name.length > MAX_FILENAME) return `must be 1 to ${MAX_FILENAME} characters`;
  if (/[/\\]/.test(name)) return 'must be a file name without a path (no / or \\)';
  if (CONTROL.test(name)) return 'must not contain line breaks or control characters';
  if (name === '.' || name === '..') return 'must be a file name';
  // Windows drops trailing dots and spaces, so `a.exe.` opens as `a.exe`.
  const extension = /\.([^.]+)$/.exec(name.replace(/[. ]+$/, ''))?.[1]?.toLowerCase();
  if (extension && BLOCKED.has(extension)) {
    return `.${extension} files are refused: mailbox providers block executable and installer types (see the docs for the list)`;
  }
  return null;
}

/** The bytes of canonical base64 (RFC 4648 §4, padded, no line breaks or spaces); null for anything else. */
function strictBase64(value: string): Buffer | null {
  if (value.length === 0 || value.length % 4 !== 0) return null;
  const bytes = Buffer.from(value, 'base64');
  // Node skips characters outside the alphabet and reads base64url too: only a faithful round trip is canonical.
  return bytes.toString('base64') === value ? bytes : null;
}

const attachmentSchema = z.strictObject({
  filename: z
    .string({ error: 'must be a string' })
    .superRefine((name, ctx) => {
      const problem = filenameProblem(name);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe(`The file name the recipient sees, 1 to ${MAX_FILENAME} characters, no path.`),
  content: z
    .string({ error: 'must be a base64 string' })
    .transform((value, ctx) => {
      const bytes = strictBase64(value);
      if (bytes) return bytes;
      ctx.addIssue({
        code: 'custom',
        message:
          value.length === 0 ? 'must not be empty' : 'must be base64 (A–Z, a–z, 0–9, + and /, padded with =; no line breaks or spaces)',
      });
      return z.NEVER;
    })
    .describe('The file, base64-encoded (RFC 4648, padded; no line breaks).'),
  content_type: z
    .string({ error: 'must be a string' })
    .regex(MIME_TYPE, { error: 'must be a MIME type such as application/pdf or image/png' })
    .refine((t) => !/^multipart\//i.test(t), { error: 'multipart types are the message structure, not a file type' })
    .nullish()
    .describe("The file's MIME type; by default from the file name's extension (application/octet-stream when unknown)."),
  content_id: z
    .string({ error: 'must be a string' })
    .max(MAX_CONTENT_ID, { error: `must be at most ${MAX_CONTENT_ID} characters` })
    .regex(CONTENT_ID, { error: 'must be an RFC 2392 Content-ID such as logo@acme.example (no angle brackets, no cid: prefix)' })
    .nullish()
    .describe('Makes the file an inline part: the html shows it as `<img src="cid:<content_id>">`. An RFC 2392 id, `left@right`.'),
  disposition: z
    .enum(['attachment', 'inline'], { error: 'must be attachment or inline' })
    .nullish()
    .describe('`inline` with a `content_id`, else `attachment` (a download), unless given.'),
});

/** `attachments` of a send or a batch message, as the relay takes them. */
export const attachmentsField = z
  .array(attachmentSchema)
  .max(MAX_ATTACHMENTS, { error: `at most ${MAX_ATTACHMENTS} attachments per message` })
  .superRefine((list, ctx) => {
    let total = 0;
    let crossed = false;
    const ids = new Set<string>();
    list.forEach((a, i) => {
      total += a.content.length;
      if (!crossed && total > MAX_ATTACHMENT_BYTES) {
        crossed = true;
        ctx.addIssue({
          code: 'custom',
          message: `attachments total at most ${MAX_ATTACHMENT_BYTES} bytes (10 MiB) per message once decoded; this one brings them to ${total}`,
          path: [i, 'content'],
        });
      }
      if (a.content_id) {
        if (ids.has(a.content_id)) ctx.addIssue({ code: 'custom', message: `${a.content_id} is given twice`, path: [i, 'content_id'] });
        ids.add(a.content_id);
      }
    });
  })
  .transform((list) =>
    list.map((a): RelayAttachment => ({
      filename: a.filename,
      content: a.content,
      contentType: a.content_type ?? detectMimeType(a.filename),
      contentDisposition: a.disposition ?? (a.content_id ? 'inline' : 'attachment'),
      ...(a.content_id ? { cid: a.content_id } : {}),
    })),
  )
  .describe(
    `Files sent with the message: up to ${MAX_ATTACHMENTS}, ${MAX_ATTACHMENT_BYTES} bytes (10 MiB) in total once decoded. ` +
      `Executable and installer types are refused (${BLOCKED_EXTENSIONS.map((e) => `.${e}`).join(', ')}).`,
  );
