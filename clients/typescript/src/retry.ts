/** How long a 429 or 503 answer asks to wait, in ms: its Retry-After (seconds or an HTTP date), else one second. */
export function retryAfterMs(response: Response, now = Date.now()): number {
  const value = response.headers.get('retry-after');
  if (value === null) return 1_000;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1_000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? 1_000 : Math.max(0, date - now);
}

/**
 * A fetch that retries a 429 (over a rate limit) or 503 (a service Workyard depends on is down) after the answer's
 * Retry-After, up to `retries` times and never waiting more than `maxWaitMs` at once. Workyard changes nothing when it
 * answers either (a refused send is not counted, a job that could not start is not stored), so any method is safe to
 * send again; the last answer is returned as it is.
 */
export function retryingFetch(base: typeof fetch = fetch, retries = 3, maxWaitMs = 60_000): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    for (let attempt = 0; ; attempt++) {
      const response = await base(request.clone());
      if ((response.status !== 429 && response.status !== 503) || attempt >= retries) return response;
      const wait = Math.min(retryAfterMs(response), maxWaitMs);
      await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  };
}
