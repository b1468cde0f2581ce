/** The numbers the SEO rules use; the route's OpenAPI description quotes them from here. */
export const SEO = {
  titleMin: 30,
  titleMax: 60,
  metaDescriptionMin: 70,
  metaDescriptionMax: 160,
  slugMax: 75,
  bodyMinWords: 300,
  /** Words of body text read as the opening when the body has no `<p>`. */
  openingWords: 100,
  errorCost: 15,
  warningCost: 5,
} as const;
