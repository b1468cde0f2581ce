import { z } from 'zod';
import { hostedUnsubscribe, senderUnsubscribeHeaders, unsubscribeField, unsubscribeOn } from '../unsubscribe/option';
import { parseMailbox, type Mailbox } from './addresses';
import { attachmentsField } from './attachments';
import { headerProblem, MAX_CUSTOM_HEADERS, unsubscribeHeaderProblem } from './headers';
import type { RelayAttachment } from './transport';

export const MAX_RECIPIENTS = 50;
export const MAX_SUBJECT = 998;
export const MAX_TAGS = 50;

export interface Tag {
  name: string;
  value: string;
}
export type TemplateVariables = Record<string, string | number | boolean>;
export interface TemplateRef {
  id?: string;
  name?: string;
  variables: TemplateVariables;
}

/** A message as the send service takes it: validated, addresses parsed, absent fields normalised. */
export interface MessageInput {
  from: Mailbox;
  to: Mailbox[];
  cc: Mailbox[];
  bcc: Mailbox[];
  replyTo: Mailbox[];
  /** Null only when a template gives it. */
  subject: string | null;
  html: string | null;
  text: string | null;
  headers: Record<string, string>;
  tags: Tag[];
  template: TemplateRef | null;
  /** Send at this time instead of now (`scheduled_at`); absent or null for an immediate send. */
  scheduledAt?: Date | null;
  /** Files sent with the message, decoded (`attachments`). */
  attachments?: RelayAttachment[];
  /** Each recipient's copy gets its own one-click unsubscribe link of this service (`unsubscribe`). */
  unsubscribe?: boolean;
}

const CONTROL = /[\u0000-\u001f\u007f]/;

const mailbox = z.string({ error: 'must be a string such as "Name <a@example.com>" or "a@example.com"' }).transform((value, ctx) => {
  const parsed = parseMailbox(value);
  if (parsed.ok) return parsed.mailbox;
  ctx.addIssue({ code: 'custom', message: parsed.error });
  return z.NEVER;
});

/** One address or a list; each is checked and reported at its own index. */
function mailboxList(min: number) {
  return z.union([z.string(), z.array(z.string())], { error: 'must be an address or a list of addresses' }).transform((value, ctx) => {
    const list = typeof value === 'string' ? [value] : value;
    if (list.length < min) ctx.addIssue({ code: 'custom', message: `must name at least ${min} address` });
    if (list.length > MAX_RECIPIENTS) ctx.addIssue({ code: 'custom', message: `must name at most ${MAX_RECIPIENTS} addresses` });
    const out: Mailbox[] = [];
    list.forEach((item, i) => {
      const parsed = parseMailbox(item);
      if (parsed.ok) out.push(parsed.mailbox);
      else ctx.addIssue({ code: 'custom', message: parsed.error, path: typeof value === 'string' ? [] : [i] });
    });
    return out;
  });
}

const tagPart = z.string().regex(/^[A-Za-z0-9_-]{1,256}$/, { error: 'must be 1 to 256 ASCII letters, digits, _ or -' });

const headersField = z.record(z.string(), z.string({ error: 'header values must be strings' })).superRefine((headers, ctx) => {
  const names = Object.keys(headers);
  if (names.length > MAX_CUSTOM_HEADERS) ctx.addIssue({ code: 'custom', message: `at most ${MAX_CUSTOM_HEADERS} headers` });
  const seen = new Set<string>();
  for (const name of names) {
    const problem =
      headerProblem(name, headers[name]) ?? (seen.has(name.toLowerCase()) ? `${name} is given twice (names ignore case)` : null);
    seen.add(name.toLowerCase());
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [name] });
  }
});

const templateField = z
  .strictObject({
    id: z.string().min(1).optional().describe('The template id; exclusive with `name`.'),
    name: z.string().min(1).max(255).optional().describe('The template name (case ignored); exclusive with `id`.'),
    variables: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean()], { error: 'variables are strings, numbers or booleans' }))
      .optional()
      .describe("Values of the template's `{{variables}}`; each one the template uses is required."),
  })
  .superRefine((t, ctx) => {
    if ((t.id === undefined) === (t.name === undefined))
      ctx.addIssue({ code: 'custom', message: 'give exactly one of id and name', path: ['id'] });
  });

/** How far ahead a message may be scheduled. */
export const MAX_SCHEDULE_DAYS = 30;

// RFC 3339 date-time with an explicit offset (Z or ±hh:mm): a time without one would depend on the server's zone.
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

const scheduledAtField = z.string({ error: 'must be an RFC 3339 date-time with an offset' }).transform((value, ctx) => {
  const at = RFC3339.test(value) ? new Date(value) : null;
  if (!at || Number.isNaN(at.getTime())) {
    ctx.addIssue({ code: 'custom', message: 'must be an RFC 3339 date-time with an offset, e.g. 2026-11-28T09:00:00+01:00' });
    return z.NEVER;
  }
  const now = Date.now();
  if (at.getTime() <= now) ctx.addIssue({ code: 'custom', message: 'must be in the future' });
  else if (at.getTime() > now + MAX_SCHEDULE_DAYS * 86_400_000)
    ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_SCHEDULE_DAYS} days ahead` });
  return at;
});

/** `scheduled_at` of a send, a batch message or `PATCH /v1/email/emails/{id}`. */
export const scheduledAt = () =>
  scheduledAtField.describe(
    `Send later: an RFC 3339 date-time with an offset (e.g. 2026-11-28T09:00:00+01:00), in the future and at most ${MAX_SCHEDULE_DAYS} days ahead.`,
  );

const absent = <T>(v: T | null | undefined): v is null | undefined => v === null || v === undefined;

/** The body of `POST /v1/email/send`, and one element of a batch. */
export const messageSchema = z
  .strictObject({
    from: mailbox.describe(
      'Sender: "Name <a@example.com>" or "a@example.com". Its domain must be verified for the account, and in the key\'s domain allowlist when it has one.',
    ),
    to: mailboxList(1).describe(`Recipient(s): an address or a list; at most ${MAX_RECIPIENTS} across to, cc and bcc.`),
    cc: mailboxList(0).nullish().describe('Copy recipients, in the headers and the envelope.'),
    bcc: mailboxList(0).nullish().describe('Blind copies: in the envelope only, never in the headers.'),
    reply_to: mailboxList(0).nullish().describe('Reply-To address(es).'),
    subject: z
      .string()
      .min(1, { error: 'must not be empty' })
      .max(MAX_SUBJECT, { error: `must be at most ${MAX_SUBJECT} characters` })
      .refine((s) => !CONTROL.test(s), { error: 'must not contain line breaks or control characters' })
      .nullish()
      .describe(`1 to ${MAX_SUBJECT} characters, no line breaks. Required unless a template gives it (then it overrides the template's).`),
    html: z.string().min(1, { error: 'must not be empty' }).nullish().describe('HTML body. At least one of html and text, or a template.'),
    text: z.string().min(1, { error: 'must not be empty' }).nullish().describe('Plain-text body.'),
    headers: headersField
      .nullish()
      .describe(
        `Custom headers, name → value (at most ${MAX_CUSTOM_HEADERS}). Names are tokens; no line breaks; From, To, Cc, Bcc, Reply-To, Sender, Subject, Date, Message-ID, Return-Path, MIME-Version, Content-* and other headers the service sets are refused; with \`unsubscribe\` on, List-Unsubscribe and List-Unsubscribe-Post too.`,
      ),
    tags: z
      .array(z.strictObject({ name: tagPart, value: tagPart }))
      .max(MAX_TAGS, { error: `at most ${MAX_TAGS} tags` })
      .superRefine((tags, ctx) => {
        const names = tags.map((t) => t.name);
        names.forEach((n, i) => {
          if (names.indexOf(n) !== i) ctx.addIssue({ code: 'custom', message: `tag ${n} is given twice`, path: [i, 'name'] });
        });
      })
      .nullish()
      .describe(
        `Up to ${MAX_TAGS} { name, value } pairs (ASCII letters, digits, _ and -), stored with the message and sent with its events.`,
      ),
    template: templateField
      .nullish()
      .describe('Render a stored template instead of html/text: { id | name, variables }. Exclusive with html and text.'),
    scheduled_at: scheduledAt()
      .nullish()
      .describe(
        `Send later instead of now: an RFC 3339 date-time with an offset (e.g. 2026-11-28T09:00:00+01:00), in the future and at most ${MAX_SCHEDULE_DAYS} days ahead. The message is checked and its template rendered now, stored as \`scheduled\` and sent at that time (202).`,
      ),
    attachments: attachmentsField.nullish(),
    unsubscribe: unsubscribeField.nullish(),
  })
  .superRefine((m, ctx) => {
    const hasBody = !absent(m.html) || !absent(m.text);
    if (!absent(m.template) && hasBody)
      ctx.addIssue({ code: 'custom', message: 'template is exclusive with html and text', path: ['template'] });
    if (absent(m.template) && !hasBody) ctx.addIssue({ code: 'custom', message: 'give html or text (or a template)', path: ['html'] });
    if (absent(m.template) && absent(m.subject))
      ctx.addIssue({ code: 'custom', message: 'is required unless a template gives it', path: ['subject'] });
    const total = (m.to?.length ?? 0) + (m.cc?.length ?? 0) + (m.bcc?.length ?? 0);
    if (total > MAX_RECIPIENTS)
      ctx.addIssue({ code: 'custom', message: `at most ${MAX_RECIPIENTS} recipients across to, cc and bcc (got ${total})`, path: ['to'] });
    if (unsubscribeOn(m.unsubscribe)) {
      for (const name of Object.keys(m.headers ?? {})) {
        const problem = unsubscribeHeaderProblem(name);
        if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['headers', name] });
      }
    }
  })
  .transform((m): MessageInput => ({
    from: m.from,
    to: m.to,
    cc: m.cc ?? [],
    bcc: m.bcc ?? [],
    replyTo: m.reply_to ?? [],
    subject: m.subject ?? null,
    html: m.html ?? null,
    text: m.text ?? null,
    headers: { ...m.headers, ...senderUnsubscribeHeaders(m.unsubscribe) },
    tags: m.tags ?? [],
    template: m.template ? { id: m.template.id, name: m.template.name, variables: m.template.variables ?? {} } : null,
    scheduledAt: m.scheduled_at ?? null,
    attachments: m.attachments ?? [],
    unsubscribe: hostedUnsubscribe(m.unsubscribe),
  }));

export type FieldError = { path: string; message: string };

/** Validates one message; errors carry paths under `prefix` (`body` for a send, `body.<index>` in a batch). */
export function parseMessage(value: unknown, prefix: string): { ok: true; message: MessageInput } | { ok: false; errors: FieldError[] } {
  const result = messageSchema.safeParse(value);
  if (result.success) return { ok: true, message: result.data };
  return {
    ok: false,
    errors: result.error.issues.map((issue) => ({
      path: [prefix, ...issue.path.map(String)].join('.'),
      message: issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : issue.message,
    })),
  };
}
