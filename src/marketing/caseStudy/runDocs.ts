/** Long OpenAPI prose of the case-study draft route, kept out of the route declaration. */

export const DRAFT = [
  'Drafts a case study from a won CRM deal (Temporal workflow `caseStudy`, job kind `case-study`) and waits for it up to',
  'three minutes (CASE_STUDY_WAIT_SECONDS): 201 with the new content item when it finishes in time, else 202 with the job',
  'and `Location` to poll (its `result` is the item; `progress`: gather, draft, save).',
  "\n\n**Refused before anything is written:** a deal that is not the account's (400 `invalid_reference`, field",
  '`deal_id`), a deal not won (409 `deal_not_won`: its stage is open or lost), a grid, testimonial, avatar or project that',
  "is not the account's, or a testimonial of another grid than `grid_id` (400 `invalid_reference` naming the field).",
  "A testimonial sent alone names its grid; without one, the grid's first consented testimonial is quoted.",
  "\n\n**The item:** type `case_study`, status `draft`, `journey_stage` the Decision stage as the account's journey map",
  'spells it (`journey_id` that map; `Decision` when no map has such a stage), `avatar_id` and `before_after_grid_id` as',
  "used, grounded in the deal's contact and company. Every number in it is a before or after value of the grid's",
  'measurable results; the quote is the testimonial row copied unchanged, and only when it has consent; source markers',
  '`[^grid:<id>]` and `[^testimonial:<id>]` with their definitions, which the pre-publish SEO check resolves.',
  "`settings.case_study` records the run, the deal and the sources used, and the writer: `model` (the chat model's prose",
  'around the numbers and quote the service places itself) or `template` (no model key, an unusable answer, or a model',
  'that kept failing; a warning says which). A `case_study` knowledge artifact keyed by the deal records the sources',
  '(a re-run refreshes it).',
  '\n\nSend `Idempotency-Key` (1..255 visible ASCII characters): the job id is `case-study:<account>:<deal>:<key>`, so a',
  'retry with the same key attaches to the same run, running or finished, and answers the same item (nothing is drafted',
  'twice); the same key with another body or route is 409 `idempotency_key_reused`. Without a key every request is a new',
  'draft.',
].join(' ');
