import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { domainSendingState } from '../domains/service';
import { senderDomainAllowed, type EmailKeyAuth } from '../keys/authenticate';

/**
 * The sender domain rules of every send (REST, batch, SMTP MAIL FROM): 403 `domain_not_allowed` when the key has a
 * domain allowlist without the domain, 403 `domain_not_verified` when the domain is not a verified sender domain of
 * the account (exact match; a subdomain needs its own verification), and for a live key 403
 * `domain_dkim_not_verified` until the domain's DKIM record verifies: live mail always goes out signed.
 */
export async function assertSenderDomain(
  deps: AppDeps,
  auth: EmailKeyAuth,
  domain: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  if (!senderDomainAllowed(auth, domain)) {
    throw new ApiError(403, 'domain_not_allowed', `this email API key may not send from ${domain} (not in its domain allowlist)`, {
      details,
    });
  }
  const state = await domainSendingState(deps, auth.accountId, domain);
  if (!state.verified) {
    throw new ApiError(403, 'domain_not_verified', `${domain} is not a verified sender domain of this account; add and verify it first`, {
      details,
    });
  }
  if (auth.environment === 'live' && !state.dkimVerified) {
    throw new ApiError(
      403,
      'domain_dkim_not_verified',
      `${domain} has no verified DKIM record yet: publish the DKIM record its domain answer lists and verify the domain; live mail is only sent signed (test keys may send meanwhile)`,
      { details },
    );
  }
}
