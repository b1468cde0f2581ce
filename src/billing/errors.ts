import { ApiError } from '../http/errors';
import type { BillingStanding } from './store';

/** 402 of an image run when the month's allowance is spent (doc1: refused before planning). */
export const quotaExhausted = (details: { allowance: number; used: number; period: string }) =>
  new ApiError(
    402,
    'quota_exhausted',
    `the monthly image allowance of ${details.allowance} is used up for ${details.period} (UTC); it renews on the 1st`,
    { details },
  );

/** 402 of an image run when the account's billing standing is not `good`; its own code so clients can tell it apart. */
export const badBillingStanding = (standing: BillingStanding) =>
  new ApiError(402, 'billing_standing', `the account's billing standing is ${standing}; image runs need good standing`, {
    details: { billing_standing: standing },
  });
