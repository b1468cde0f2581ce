/** How a batch window groups what arrives and sends each group on. */
export interface BatchWindowSpec<Item> {
  /** Groups being sent at once; what arrives meanwhile waits and goes out together in the next one. */
  maxInFlight: number;
  /** Most items in one group. */
  maxItems: number;
  /** A group closes once it weighs this much (it always takes at least one item). */
  maxWeight: number;
  weightOf(item: Item): number;
  /** Sends one group; it answers its items itself and never rejects. */
  send(group: Item[]): Promise<void>;
}

/**
 * The window of a group commit or a grouped lookup: items that arrive together — within one event-loop turn, or while
 * earlier groups are in flight — go out as ONE group. Under light load a group is one item and waits for nothing (a
 * setImmediate); under load the window is the time the groups in flight take. Every item goes out in a group sent
 * after it arrived.
 */
export class BatchWindow<Item> {
  private queue: Item[] = [];
  private queuedWeight = 0;
  private inFlight = 0;
  private scheduled = false;

  constructor(private readonly spec: BatchWindowSpec<Item>) {}

  add(item: Item): void {
    this.queue.push(item);
    this.queuedWeight += this.spec.weightOf(item);
    this.schedule();
  }

  private schedule(): void {
    if (this.queue.length === 0 || this.inFlight >= this.spec.maxInFlight) return;
    if (this.queue.length >= this.spec.maxItems || this.queuedWeight >= this.spec.maxWeight) {
      this.flush();
    } else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      });
    }
  }

  private flush(): void {
    if (this.queue.length === 0 || this.inFlight >= this.spec.maxInFlight) return;
    const group: Item[] = [];
    let weight = 0;
    while (this.queue.length > 0 && group.length < this.spec.maxItems && (group.length === 0 || weight < this.spec.maxWeight)) {
      const next = this.queue.shift()!;
      weight += this.spec.weightOf(next);
      group.push(next);
    }
    this.queuedWeight -= weight;
    this.inFlight++;
    void this.spec.send(group).finally(() => {
      this.inFlight--;
      this.schedule();
    });
  }
}
