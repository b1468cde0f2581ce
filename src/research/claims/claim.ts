/** A claim drawn from a source: what it says and the quote that backs it. */
export interface ExtractedClaim {
  claim: string;
  quote: string;
  confidence_score: number;
}
export interface Extraction {
  extraction: 'model' | 'fallback';
  claims: ExtractedClaim[];
}
