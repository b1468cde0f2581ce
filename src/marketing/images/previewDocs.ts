/** Long OpenAPI prose of the images preview route, kept out of the route declaration. */

export const PREVIEW = [
  'What `POST …/images` would illustrate, without a model call and without spending anything.',
  '`sections`: every H2 of the body in document order (nested ones too) and whether an image already sits below it',
  '(an `<img>`, a `<picture>`, or a `<figure>` holding an `<svg>`, before the next H2).',
  '`candidates`: the plan of the documented heuristic (the one a run uses without a model key) with the featured image kept:',
  'the hero when the item has no featured image, then each H2 with no image below it, a heading that is not generic',
  '(introduction, conclusion, summary, FAQ, final thoughts, key takeaways, references, sources, related …) and at least',
  `40 words of text, at most 8 sections. A run with a model may pick fewer headings (those that add information).`,
  '`allowance.remaining`: image units left this UTC month, null on an unlimited plan.',
].join(' ');
