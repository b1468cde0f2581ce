/** One message in an instance's queue, as `postqueue -j` lists it. */
export interface QueueEntry {
  id: string;
  /** `incoming`, `active`, `deferred`, `hold` or `maildrop`. */
  queue: string;
  sender: string;
  recipients: Array<{ address: string; reason?: string }>;
}

interface PostqueueLine {
  queue_id: string;
  queue_name: string;
  sender: string;
  recipients?: Array<{ address: string; delay_reason?: string }>;
}

/** `postqueue -j` prints one JSON object a line. */
export function parsePostqueueJson(output: string): QueueEntry[] {
  return output
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as PostqueueLine)
    .map((entry) => ({
      id: entry.queue_id,
      queue: entry.queue_name,
      sender: entry.sender,
      recipients: (entry.recipients ?? []).map((r) => ({ address: r.address, ...(r.delay_reason ? { reason: r.delay_reason } : {}) })),
    }));
}
