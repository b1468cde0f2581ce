import { z } from 'zod';
import { ApiError } from '../../http/errors';
import { sitePlatformErrors } from './errors';
import { MALFORMED, send } from './http';
import type { ExchangeCodeOptions, RevokeOptions } from './types';

const exchangeSchema = z.object({
  apiUrl: z.url(),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  code: z.string().min(1),
  redirectUri: z.url().optional(),
  timeoutMs: z.number().int().positive(),
});
const revokeSchema = z.object({
  authUrl: z.url(),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  accessToken: z.string().min(1),
  timeoutMs: z.number().int().positive(),
});
const tokenResponse = z.object({ access_token: z.string().min(1) });

function invalid(what: string, error: z.ZodError): ApiError {
  return new ApiError(400, 'validation_failed', `invalid ${what} options`, {
    errors: error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
  });
}

/** Form-encoded: the platform's OAuth endpoints take client credentials in the body, never in a URL. */
async function postForm(call: string, url: string, form: Record<string, string>, timeoutMs: number) {
  const res = await send({
    call,
    method: 'POST',
    url,
    timeoutMs,
    headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  if (res.status >= 400) throw sitePlatformErrors.fromResponse(call, res.status, res.body === MALFORMED ? undefined : res.body);
  if (res.body === MALFORMED) throw sitePlatformErrors.malformed(call, res.status);
  return res;
}

/** `POST <apiUrl>/oauth/access_token`: trades the callback's code for a token that does not expire. */
export async function exchangeAuthorizationCode(opts: ExchangeCodeOptions): Promise<{ accessToken: string }> {
  const parsed = exchangeSchema.safeParse(opts);
  if (!parsed.success) throw invalid('code exchange', parsed.error);
  const call = 'POST /oauth/access_token';
  const form: Record<string, string> = {
    client_id: opts.clientId,
    client_secret: opts.clientSecret,
    code: opts.code,
    grant_type: 'authorization_code',
  };
  if (opts.redirectUri) form.redirect_uri = opts.redirectUri;
  const res = await postForm(call, `${opts.apiUrl.replace(/\/+$/, '')}/oauth/access_token`, form, opts.timeoutMs);
  const token = tokenResponse.safeParse(res.body);
  if (!token.success) throw sitePlatformErrors.malformed(call, res.status);
  return { accessToken: token.data.access_token };
}

/** `POST <authUrl>/oauth/revoke_authorization`: ends the authorization; an unknown token is not an error. */
export async function revokeAuthorization(opts: RevokeOptions): Promise<void> {
  const parsed = revokeSchema.safeParse(opts);
  if (!parsed.success) throw invalid('revoke', parsed.error);
  await postForm(
    'POST /oauth/revoke_authorization',
    `${opts.authUrl.replace(/\/+$/, '')}/oauth/revoke_authorization`,
    {
      client_id: opts.clientId,
      client_secret: opts.clientSecret,
      access_token: opts.accessToken,
    },
    opts.timeoutMs,
  );
}
