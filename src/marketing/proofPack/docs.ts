export const GET_PACK = [
  "Gathers proof for a writer from the account's sources and answers `{ data, sources, notes }`.",
  '',
  '- Consent true — quoted verbatim with attribution: grid testimonials with consent, before/after results (numbers as recorded, the grid as attribution) and CRM activities of kind `review` (attribution: the contact).',
  '- Consent false — internal voice of customer, paraphrased with no name: CRM activities of kind `ticket`, `call`, `survey`, `objection`, grid testimonials without consent, and knowledge-base passages. With a model configured one chat call paraphrases the batch; otherwise, or when a paraphrase is unusable or still names the source\'s person, the name-stripping fallback writes the text (the contact\'s names → "the customer"; emails, links, phone numbers and @handles → "[removed]"; a capitalised name after a greeting or sign-off → "the customer").',
  '- Every entry carries `citation` (`[^testimonial:<id>]`, `[^result:<id>]`, `[^review:<activityId>]`, `[^activity:<activityId>]`, `[^kb:<passageId>]`) and `citation_definition`; put the definition in its own paragraph and the pre-publish check resolves the citation.',
  `- Text is at most 600 characters: a paraphrase is cut at a word with "…"; a verbatim quote over 600 characters is left out (a cut quote is no longer verbatim) and notes say how many.`,
  '- Each source (testimonials, results, crm_activities, knowledge_bases) is read on its own with a deadline: one that cannot be read is `ok: false` with a line in notes while the others still answer.',
  '- At most `limit` entries, taken one kind at a time in the order testimonial, result, review, ticket, call, survey, objection, knowledge.',
].join('\n');

export const STORE_PACK = [
  "Builds the item's proof pack (the same filters in the JSON body; the item narrows it as `content_id` does) and stores it as the item's `proof_pack` knowledge artifact (key `content:<id>`) in the research knowledge base.",
  'A second call refreshes the same artifact (`created: false`). Answers 201 `{ artifact_id, created, pack }`.',
].join('\n');
