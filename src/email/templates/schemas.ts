import { z } from 'zod';
import { requiredText } from '../../http/fields';
import { parsePlaceholders } from './placeholders';

export const MAX_NAME = 100;
export const MAX_SUBJECT = 998;
export const MAX_BODY = 500_000;

const PLACEHOLDER_RULE =
  'placeholders are {{name}} with letters, digits and _ in parts joined by dots (html also takes {{{name}}}, unescaped)';

/** Refuses `{{…}}` that names nothing well-formed, so a typo fails at save time rather than showing in a sent mail. */
function checkPlaceholders(value: string | null, ctx: z.RefinementCtx): void {
  if (!value) return;
  const { invalid } = parsePlaceholders(value);
  if (invalid.length > 0) ctx.addIssue({ code: 'custom', message: `invalid placeholder ${invalid[0]}: ${PLACEHOLDER_RULE}` });
}

export const nameField = () =>
  requiredText(MAX_NAME).describe(`1..${MAX_NAME} characters; unique in the account ignoring case. A send may name the template by it.`);

export const subjectField = () =>
  requiredText(MAX_SUBJECT)
    .regex(/^[^\r\n]*$/, { error: 'must be one line' })
    .superRefine(checkPlaceholders)
    .describe(`1..${MAX_SUBJECT} characters, one line; {{variables}} are inserted as given.`);

/** html or text content: "" is read as null (absent on create, cleared on update). */
export const contentField = (kind: 'html' | 'text') =>
  z
    .string()
    .max(MAX_BODY, { error: `must be at most ${MAX_BODY} characters` })
    .nullable()
    .transform((v) => (v === '' ? null : v))
    .superRefine(checkPlaceholders)
    .describe(
      kind === 'html'
        ? `Up to ${MAX_BODY} characters. {{variables}} are HTML-escaped; {{{variables}}} are inserted unescaped (only for values you trust).`
        : `Up to ${MAX_BODY} characters. {{variables}} are inserted as given.`,
    );

const timestamp = z.string().meta({ format: 'date-time', description: 'ISO 8601 timestamp (UTC).' });
const variables = z
  .array(z.string())
  .describe('The variables the template uses, in order of first appearance (subject, html, text); a send must give each a value.');

export const templateSummarySchema = z
  .object({
    id: z.string().meta({ format: 'uuid' }),
    name: z.string(),
    subject: z.string(),
    variables,
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'EmailTemplateSummary' });

export const templateSchema = templateSummarySchema
  .extend({
    html: z.string().nullable(),
    text: z.string().nullable(),
  })
  .meta({ id: 'EmailTemplate' });

export type TemplateJson = z.infer<typeof templateSchema>;
