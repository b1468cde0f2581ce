import { DUPLICATE_WINDOW_HOURS, HONEYPOT_FIELDS } from './rules';

export const LIST = `The forms ledger: the account's system of record for leads (doc2 Events "Form submission handling"), newest
submission first, paged \`{ data, total, page, limit }\`.

Rows come from site platform \`form_submission\` deliveries (the receiver) and from the forms backfill
(\`POST /api/builder/site-platform/{projectId}/forms/backfill\`, rows with \`historical: true\`). One row per account and
submission: idempotency key \`platform:<accountId>:<submissionId>\`, where the submission id is the payload's \`id\`, unless it
equals \`formElementId\`; then the hex SHA-256 of \`<name>\\n<submittedAt>\`.

- **spam**: a honeypot field (${HONEYPOT_FIELDS.map((f) => `\`${f}\``).join(', ')}; names compared ignoring case and
  punctuation) holds a value. Sites hide these inputs from people; the platform's own spam filter passes them through.
  Spam rows start no workflow, create no contact and notify nobody.
- **duplicate**: an earlier non-deleted, non-spam row of the account has the same email (case-insensitively) and the
  same form label, submitted within ${DUPLICATE_WINDOW_HOURS} hours before this one. Duplicates are not spam: they still fire
  \`form_submitted\` and reach the contact, but lead counts leave them out. Two identical submissions racing each other
  may both read as originals.
- A new non-spam, non-historical row fires the \`form_submitted\` workflow trigger once, creates or updates the CRM contact
  of its email (\`contact_id\`), and raises one inbox item \`form_submission_received\`.

Filters combine (AND). Deleted rows are left out unless \`include_deleted=true\`. Booleans are \`true\` or \`false\`;
\`since\`/\`until\` are ISO 8601 timestamps with a zone on \`submitted_at\` (since inclusive, until exclusive). Anything else
is 400 \`validation_failed\` naming the parameter.`;

export const GET = `One ledger row of the account, deleted or not, with \`raw_payload\` (the delivery's \`payload\` as sent). Another
account's id, an unknown id and a malformed id all answer 404 \`form_submission_not_found\`.`;

export const DELETE = `Soft delete: stamps \`deleted_at\`; the row leaves the default listing and the lead counts, stays readable by id
and with \`include_deleted=true\`, and keeps its idempotency key (a redelivery of it is still a replay, not a new lead).
Deleting a deleted row answers 204 again. Another account's id answers 404.`;

export const AGENT = `Agent twin: an agent key with \`crm:read\` reads the ledger, \`crm:write\` deletes (leads belong to the CRM).`;
