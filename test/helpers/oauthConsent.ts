/**
 * Opens a platform simulator's authorize URL (it approves at once) and answers the callback URL it redirects to,
 * moved onto `appBaseUrl`: the redirect names PUBLIC_APP_URL (the harness app), while the test's own private app,
 * configured for its simulator, serves the same route.
 */
export async function followConsent(authorizeUrl: string, appBaseUrl: string): Promise<URL> {
  const approval = await fetch(authorizeUrl, { redirect: 'manual' });
  await approval.arrayBuffer();
  const location = approval.headers.get('location');
  if (approval.status !== 302 || !location) throw new Error(`authorize did not redirect: ${approval.status}`);
  const callback = new URL(location);
  const target = new URL(appBaseUrl);
  callback.protocol = target.protocol;
  callback.host = target.host;
  return callback;
}
