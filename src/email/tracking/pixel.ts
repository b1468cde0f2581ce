/** A 1×1 transparent GIF (GIF89a; its one colour is transparent): 43 bytes. */
export const PIXEL_GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

/** Never cached, so each open reaches the server (proxies such as Gmail's may still cache: see docs/email.md). */
export const PIXEL_HEADERS: Record<string, string> = {
  'content-type': 'image/gif',
  'cache-control': 'no-store, no-cache, must-revalidate, private, max-age=0',
  pragma: 'no-cache',
  expires: '0',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** A redirect of a tracked link: the token in its URL never reaches the target as a Referer. */
export const REDIRECT_HEADERS: Record<string, string> = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex',
};
