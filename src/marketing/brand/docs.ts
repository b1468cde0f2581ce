// OpenAPI prose of the brand routes, kept out of the route declarations so they read as code.

const ACCESS =
  'Session token: any role. Agent twin under `/api/agent/marketing/…`: `marketing.content:read` reads, `marketing.content:update` writes (a read-only key only reads).';

const GUIDE_FIELDS =
  'Fields: `voice` and `visual_style` (free text, at most 2,000 characters each), `colors` (at most 12 `{ name?, hex }`, hex `#rrggbb`, answered lowercase), ' +
  '`avoid` (at most 30 things image prompts must avoid, 1–200 characters each, duplicates dropped) and `primary_logo_asset_id` (a media asset of the account).';

export const getAccountGuide = `The account's brand guide. A guide never saved answers 200 with every field unset (\`null\`, \`[]\`) and \`updated_at: null\`, so a client never has to tell "no guide" from an error. ${ACCESS}`;

export const putGuide = (scope: string) =>
  [
    `Replaces ${scope} as a whole (PUT semantics): send every field you want to keep; a field left out is cleared (\`null\` or \`[]\`), so two PUTs of the same body leave the same guide. \`""\` and \`null\` clear a text field. To change one field, GET, change it, PUT the result.`,
    GUIDE_FIELDS,
    "A `primary_logo_asset_id` that is not a media asset of the account (unknown, or another account's) is 400 `invalid_reference` with `field`; nothing is written. Deleting the asset later unsets the logo.",
    ACCESS,
  ].join('\n\n');

export const getProjectGuide =
  `The project's own brand guide, as saved (not merged with the account's; the image profile shows what applies). Unset fields are \`null\` or \`[]\`; a project with no guide of its own answers 200 with every field unset. ` +
  `A project that is not the account's (unknown, another account's, malformed id) is 404 \`project_not_found\`. ${ACCESS}`;

export const imageProfile = [
  'What an image prompt carries for the account, or for one of its website projects with `project_id`. Read-only: computes, writes nothing.',
  "The guide that applies is merged field by field: each field the project's own guide sets (a text, a non-empty list, a logo) wins over the account's; a field it leaves unset comes from the account's guide (so a project cannot blank out a field the account sets; it can only replace it).",
  '`prompt_block`: plain sentences (no markdown: list markers, headings, emphasis, code and links of the guide\'s text are dropped, each line becomes a sentence) built from the visual style, the voice and the colours; `""` when none is set. ' +
    '`avoid_list`: the `avoid` entries, to be given to the image model as things to leave out (not repeated in `prompt_block`).',
  '`reference_images`: the primary logo first (`id: "logo_primary"`, `role: "logo"`), then up to three media assets of the account tagged `brand_reference` (their asset id, `role: "brand"`, newest first; the logo asset is not listed twice). `url` is the public media URL; `alt` is the alt text when the asset has one. Tag images with `PATCH /api/agent/marketing/media/{assetId}`.',
  'An account with no guide and no tagged images answers `{ project_id: null, prompt_block: "", avoid_list: [], reference_images: [] }`.',
  "`project_id` absent or empty: the account guide alone. A `project_id` that is not a website project of the account (unknown, another account's, or not a uuid) is 404 `project_not_found`.",
  'Agent key with `marketing.content:read` (`/api/agent/marketing/brand/image-profile`); the dashboard twin takes a session token.',
].join('\n\n');
