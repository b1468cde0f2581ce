// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.
import { DEFAULT_ARTIFACT_LIMIT, MAX_ARTIFACT_LIMIT } from './schemas';

export const listKnowledgeBasesDescription =
  'Not in the spec; designed like the list endpoints of Stripe and OpenAI (vector stores): answers ' +
  '`{ data, total, page, limit }`, the research knowledge base first (once it exists), then the others by creation. ' +
  'Each carries `document_count`, `artifact_count` and `passage_count`. Paging reads like the artifact lists ' +
  '(0 or below is the default; limit default 25, above 100 read as 100).';

export const createKnowledgeBaseDescription =
  "Not in the spec; designed like Stripe's create calls: 201 with the object. The research knowledge base " +
  'is never created here (research runs create it on first use). A name the account already uses, ignoring case, ' +
  'is 409. Honours `Idempotency-Key`.';

export const getKnowledgeBaseDescription = 'Not in the spec. Answers the object itself, like the create call.';

export const addKnowledgeDocumentDescription =
  "Not in the spec; designed like OpenAI's vector-store files: the text is split into passages (about 300 to " +
  '1,200 characters, paragraphs kept whole when they fit) and indexed for search at once. Answers 201 ' +
  '`{ data: { document_id, already_indexed, passages } }`. A `source_url` the knowledge base already holds is not ' +
  'indexed again: the answer names the stored document with `already_indexed` true and its stored passage count, ' +
  'and nothing is written (so retries and concurrent calls never duplicate passages).';

export const searchKnowledgeBaseDescription =
  "Not in the spec; designed like OpenAI's vector-store search: answers `{ data: hits }` ranked by relevance " +
  '(Postgres full text). Passages holding every word come first; when none does, passages holding any of them. ' +
  "A hit from an artifact's text carries `metadata.artifact_id` and `metadata.artifact_type`; other hits have empty `metadata`.";

export const writeKnowledgeArtifactDescription =
  "Not in the spec; designed like an upsert by external key (Stripe's idempotent writes, Shopify's metafields): " +
  'any `artifact_type` a writer chooses; without `key` each call adds an artifact (201); with `key` there is one artifact ' +
  'per (knowledge base, type, key), and a second call replaces its `content_id`, `is_verified` and `content_json` ' +
  "(200; `created_at` kept). `content_json.content_id` is set to `content_id`. The artifact's text (the string values " +
  'of `content_json`) is indexed for search, replaced on refresh. Answers `{ data: artifact, created }`.';

export const getKnowledgeArtifactDescription =
  "Answers `{ data: artifact }`. A malformed id is 400 `validation_failed` (the spec's rule for artifact ids); " +
  'an unknown id, or one whose knowledge base is not in your account, is 404 `artifact_not_found`.';

export const paging =
  `Answers \`{ data, total, page, limit }\`, most recently updated first; filters combine (AND). \`page\` defaults ` +
  `to 1 and \`limit\` to ${DEFAULT_ARTIFACT_LIMIT}; a page or limit of 0 or below is read as the default and a limit ` +
  `above ${MAX_ARTIFACT_LIMIT} as ${MAX_ARTIFACT_LIMIT} (the answer's \`page\` and \`limit\` say what was used); a value ` +
  'that is not a whole number is 400. A non-uuid `content_id` is 400.';

export const listKnowledgeArtifactsDescription = `${paging} A non-uuid \`kb_id\` is 400; a \`kb_id\` of another account matches nothing.`;

export const listResearchArtifactsDescription =
  `${paging} Before the account's first research run there is no research knowledge base yet: the answer is an ` +
  'empty page, and this read does not create one (the first run does).';

export const payloadTooLargeError = (bytes: number) => `The request body is over ${bytes} bytes. Nothing is written.`;
