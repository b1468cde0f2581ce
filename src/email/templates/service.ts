import type { Knex } from '../../db/knex';
import { isUniqueViolation } from '../../db/errors';
import { ApiError } from '../../http/errors';
import { invalidField } from '../../http/fieldErrors';
import { isUuid } from '../../http/ids';
import type { Page } from '../../http/pagination';
import { parsePlaceholders, variableNames } from './placeholders';
import { fill, missingNames, valueOf, type Variables } from './render';
import * as store from './store';
import type { TemplateFields, TemplateRow } from './store';

export type { TemplateRow };
export type { VariableValue, Variables } from './render';

export const templateNotFound = () => new ApiError(404, 'template_not_found', 'template not found');

export interface RenderedTemplate {
  subject: string;
  html: string | null;
  text: string | null;
}

/** Maps the (account, lower(name)) unique violation to 409 `template_name_taken`. */
async function uniquely<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err, store.NAME_INDEX)) {
      throw new ApiError(409, 'template_name_taken', 'another template of this account has this name (names are compared ignoring case)', {
        details: { field: 'name' },
      });
    }
    throw err;
  }
}

const needsBody = () => invalidField('body.html', 'a template needs html or text (or both)');

export async function createTemplate(db: Knex, accountId: string, fields: TemplateFields): Promise<TemplateRow> {
  if (fields.html === null && fields.text === null) throw needsBody();
  return uniquely(() => store.insertTemplate(db, accountId, fields));
}

export const listTemplates = (db: Knex, accountId: string, page: Page) => store.listTemplates(db, accountId, page);

/** The template; 404 `template_not_found` when the id is malformed, missing or another account's. */
export async function getTemplate(db: Knex, accountId: string, id: string): Promise<TemplateRow> {
  const row = isUuid(id) ? await store.findTemplate(db, accountId, id) : undefined;
  if (!row) throw templateNotFound();
  return row;
}

/** Partial update; null clears html or text, as long as one of them remains. Row-locked so two PATCHes cannot clear both. */
export async function updateTemplate(db: Knex, accountId: string, id: string, changes: Partial<TemplateFields>): Promise<TemplateRow> {
  return db.transaction(async (trx) => {
    const current = isUuid(id) ? await store.lockTemplate(trx, accountId, id) : undefined;
    if (!current) throw templateNotFound();
    if (Object.keys(changes).length === 0) return current;
    const html = changes.html === undefined ? current.html : changes.html;
    const text = changes.text === undefined ? current.text : changes.text;
    if (html === null && text === null) throw needsBody();
    const row = await uniquely(() => store.updateTemplate(trx, accountId, id, changes));
    if (!row) throw templateNotFound();
    return row;
  });
}

export async function deleteTemplate(db: Knex, accountId: string, id: string): Promise<void> {
  if (!isUuid(id) || !(await store.deleteTemplate(db, accountId, id))) throw templateNotFound();
}

/** The variables the template uses, in order of first appearance (subject, then html, then text). */
export function templateVariables(t: Pick<TemplateRow, 'subject' | 'html' | 'text'>): string[] {
  return variableNames(parsePlaceholders(t.subject), parsePlaceholders(t.html ?? ''), parsePlaceholders(t.text ?? ''));
}

async function findForSend(db: Knex, accountId: string, ref: { id?: string; name?: string }): Promise<TemplateRow | undefined> {
  if (ref.id !== undefined) {
    const row = isUuid(ref.id) ? await store.findTemplate(db, accountId, ref.id) : undefined;
    return row && (ref.name === undefined || row.name.toLowerCase() === ref.name.toLowerCase()) ? row : undefined;
  }
  return ref.name !== undefined ? store.findTemplateByName(db, accountId, ref.name) : undefined;
}

/**
 * The template of a send (by id, or by name ignoring case; with both, they must name the same template) filled with
 * `variables`: HTML-escaped in html except `{{{raw}}}`, as given in subject and text. 400 `template_not_found` when
 * it is not in the account; 400 `template_variable_missing` naming the first variable without a value (all in
 * `missing`); 400 `template_variable_invalid` for a subject value with a line break (it would break the header).
 */
export async function renderTemplate(
  db: Knex,
  accountId: string,
  ref: { id?: string; name?: string },
  variables: Variables,
): Promise<RenderedTemplate> {
  const template = await findForSend(db, accountId, ref);
  if (!template) {
    throw new ApiError(400, 'template_not_found', 'the template named by the send is not in this account', {
      details: { field: 'template' },
    });
  }
  const subject = parsePlaceholders(template.subject).parts;
  const html = template.html === null ? null : parsePlaceholders(template.html).parts;
  const text = template.text === null ? null : parsePlaceholders(template.text).parts;

  const missing = missingNames([subject, html ?? [], text ?? []], variables);
  if (missing.length > 0) {
    throw new ApiError(
      400,
      'template_variable_missing',
      `the template uses {{${missing[0]}}} but variables has no value for "${missing[0]}"`,
      {
        details: { variable: missing[0], missing },
      },
    );
  }
  for (const part of subject) {
    if (typeof part !== 'string' && /[\r\n]/.test(valueOf(variables, part.name) ?? '')) {
      throw new ApiError(
        400,
        'template_variable_invalid',
        `the value of "${part.name}" is used in the subject and must not contain a line break`,
        {
          details: { variable: part.name },
        },
      );
    }
  }
  return {
    subject: fill(subject, variables, 'plain'),
    html: html && fill(html, variables, 'html'),
    text: text && fill(text, variables, 'plain'),
  };
}
