/** Long OpenAPI prose of the billing routes, kept out of the route declarations. */

export const GET_PLAN =
  "The account's plan, billing standing and this UTC month's image allowance. No payment integration: an operator " +
  'sets them with `npm run cli -- account plan --account ID [--plan NAME] [--image-allowance N|unlimited] ' +
  '[--standing good|past_due|unpaid|suspended]`; an account nobody set has plan `standard`, unlimited images ' +
  '(`image_allowance_monthly: null`) and standing `good`.\n\n' +
  '`images`: `period` is the UTC month (`YYYY-MM`) and `resets_at` the start of the next one; `used` counts rendered ' +
  'images, `reserved` the images of runs still rendering (they count until rendered or refunded); `remaining` = ' +
  '`allowance` − `used` − `reserved`, never below 0, null when unlimited. An image run reserves one unit per planned ' +
  'image and refunds the unit of a failed render; it answers 402 `billing_standing` when the standing is not `good` ' +
  'and 402 `quota_exhausted` when `remaining` is 0.\n\n' +
  'Session token of any role (members read it too); the agent twin `/api/agent/account/plan` takes any agent key.';
