// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.

export const templateNameTakenError = 'Another template of the account has this name, ignoring case (`field`: `name`). Nothing is written.';

export const validationFailedError =
  'A field breaks its rule, a placeholder is malformed, or neither html nor text would remain (`body.html`). Nothing is written.';

export const listEmailTemplatesDescription =
  'Answers `{ data, total, page, limit }` in alphabetical order of name, ignoring case, without the html and text ' +
  '(get one template for them). `page` defaults to 1, `limit` to 25 (at most 100).';

export const updateEmailTemplateDescription = 'Partial: an absent field stays. Sends after the update use the new content.';

export const RENDER_RULES =
  'A send names a template (`template: { id | name, variables }`): every variable it uses needs a value ' +
  '(400 `template_variable_missing` names the first one lacking); values are HTML-escaped in html (`{{{name}}}` inserts one unescaped) ' +
  'and inserted as given in subject and text (a subject value must not hold a line break: 400 `template_variable_invalid`).';

export const createEmailTemplateDescription = `\`name\` and \`subject\` are required, with \`html\` or \`text\` or both. ${RENDER_RULES} Honours \`Idempotency-Key\`.`;
