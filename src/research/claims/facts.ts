/** What makes a sentence carry a fact, strongest first; each kind found adds to a sentence's weight. */
const FACT_KINDS: Array<[kind: string, pattern: RegExp]> = [
  ['percentage', /\d\s?(?:%|percent\b|per cent\b|percentage points?\b)/i],
  ['money', /[$€£¥]\s?\d|\b\d[\d,.]*\s?(?:usd|eur|gbp|dollars?|euros?)\b/i],
  [
    'quantity',
    /\b\d[\d,.]*\s?(?:kg|mg|g|tons?|tonnes?|lbs?|oz|km|cm|mm|m|miles?|ft|feet|inch(?:es)?|sq ?ft|m²|litres?|liters?|gallons?|kwh|mwh|gwh|kw|mw|watts?|volts?|°\s?[cf]|degrees?|hours?|hrs?|minutes?|mins?|seconds?|days?|weeks?|months?|years?|mph|km\/h|gb|mb|tb|ghz|million|billion|trillion|times)\b/i,
  ],
  ['year', /\b(?:1[6-9]\d\d|20\d\d)s?\b/],
  ['number', /\d/],
];

/** A leading list number ("1." or "(2)") is not a fact. */
const LIST_NUMBER = /^\(?\d{1,2}[.)]\s+/;

/** The kinds of fact a sentence carries (percentage, money, quantity, year, number); empty when none. */
export function factKinds(sentence: string): string[] {
  const body = sentence.replace(LIST_NUMBER, '');
  return FACT_KINDS.filter(([, pattern]) => pattern.test(body)).map(([kind]) => kind);
}
