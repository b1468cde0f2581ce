import { REQUESTED_SCOPES } from './scopes';

export const CALLBACK_PATH = '/api/oauth/site-platform/callback';

export const callbackUrl = (publicAppUrl: string) => `${publicAppUrl.replace(/\/+$/, '')}${CALLBACK_PATH}`;

/** `<auth url>/oauth/authorize?response_type=code&client_id&redirect_uri&scope&state`, scopes space-separated; no PKCE. */
export function authorizeUrl(input: { authUrl: string; clientId: string; redirectUri: string; state: string }): string {
  const url = new URL(`${input.authUrl.replace(/\/+$/, '')}/oauth/authorize`);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', input.clientId);
  url.searchParams.set('redirect_uri', input.redirectUri);
  url.searchParams.set('scope', REQUESTED_SCOPES.join(' '));
  url.searchParams.set('state', input.state);
  return url.toString();
}
