import { ApiError } from '../../http/errors';
import { missingScopes } from './scopes';
import { routeVerb, type OperationDef } from './types';

export interface GateContext {
  grantedScopes: string | readonly string[];
  authKind: 'oauth' | 'site_token';
  confirm?: unknown;
  localeId?: unknown;
  siteHasSecondaryLocale: boolean;
  /** The HTTP method of the operation route request. */
  method: string;
}

type GateOp = Pick<OperationDef, 'name' | 'kind' | 'scopes' | 'confirmGated' | 'requiresOAuth' | 'localeGated'>;

/**
 * The first failing gate as a coded error, or null. Order: wrong_verb, then scope, confirm, auth kind, locale
 * (spec, Authentication 10). Pure: the caller supplies the grant, the auth kind and the site's locales.
 */
export function checkGates(op: GateOp, ctx: GateContext): ApiError | null {
  const verb = routeVerb(op);
  if (ctx.method.toUpperCase() !== verb) {
    return new ApiError(400, 'wrong_verb', `${op.name} is a ${op.kind}; send it as ${verb}`);
  }
  const missing = missingScopes(ctx.grantedScopes, op.scopes);
  if (missing.length > 0) {
    return new ApiError(412, 'missing_scopes', `the connection was never granted ${missing.join(', ')}; reconnect to grant it`, {
      details: { missing_scopes: missing },
    });
  }
  if (op.confirmGated && ctx.confirm !== true) {
    return new ApiError(412, 'confirm_required', `${op.name} needs confirm: true`);
  }
  if (op.requiresOAuth && ctx.authKind !== 'oauth') {
    return new ApiError(412, 'oauth_required', `${op.name} needs an OAuth connection; a site token cannot call it`);
  }
  if (op.localeGated) {
    if (!ctx.siteHasSecondaryLocale) {
      return new ApiError(
        412,
        'secondary_locale_required',
        `the site has no secondary locale; ${op.name} writes only a secondary locale, and primary-locale body text is edited in the platform's designer`,
      );
    }
    if (typeof ctx.localeId !== 'string' || ctx.localeId === '') {
      return new ApiError(412, 'secondary_locale_required', `${op.name} needs localeId naming one of the site's secondary locales`);
    }
  }
  return null;
}
