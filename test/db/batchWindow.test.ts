import assert from 'node:assert/strict';
import { BatchWindow } from '../../src/db/batchWindow';

/** A window whose groups stay in flight until released, recording each group it sent. */
function windowOf(limits: { maxInFlight: number; maxItems: number; maxWeight: number }) {
  const sent: number[][] = [];
  const pending: Array<() => void> = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const window = new BatchWindow<number>({
    ...limits,
    weightOf: (n) => n,
    send: (group) => {
      sent.push(group);
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      return new Promise<void>((resolve) =>
        pending.push(() => {
          inFlight--;
          resolve();
        }),
      );
    },
  });
  // Two turns: the group's end runs as a microtask, and the next group goes out on the turn after it.
  const settle = async () => {
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
  };
  /** Ends every group in flight, and every group sent after it, until nothing is in flight. */
  const releaseAll = async () => {
    await settle();
    while (pending.length > 0) {
      pending.shift()!();
      await settle();
    }
  };
  return { window, sent, settle, releaseAll, mostInFlight: () => mostInFlight };
}

describe('batch window (group commit and grouped lookups)', () => {
  it('a lone item goes out at once, alone', async () => {
    const w = windowOf({ maxInFlight: 2, maxItems: 10, maxWeight: 100 });
    w.window.add(1);
    await w.settle();
    assert.deepEqual(w.sent, [[1]]);
  });

  it('items arriving in one turn go out as one group', async () => {
    const w = windowOf({ maxInFlight: 2, maxItems: 10, maxWeight: 100 });
    for (const n of [1, 2, 3]) w.window.add(n);
    await w.settle();
    assert.deepEqual(w.sent, [[1, 2, 3]]);
  });

  it('while the most groups are in flight, arrivals wait and go out together once one ends', async () => {
    const w = windowOf({ maxInFlight: 1, maxItems: 10, maxWeight: 100 });
    w.window.add(1);
    await w.settle();
    for (const n of [2, 3, 4]) w.window.add(n);
    await w.settle();
    assert.deepEqual(w.sent, [[1]], 'nothing more is sent while one group is in flight');
    await w.releaseAll();
    assert.deepEqual(w.sent, [[1], [2, 3, 4]]);
    assert.equal(w.mostInFlight(), 1);
  });

  it('a group closes at its item or weight limit, and always takes at least one item', async () => {
    const byCount = windowOf({ maxInFlight: 1, maxItems: 2, maxWeight: 100 });
    for (const n of [1, 1, 1, 1, 1]) byCount.window.add(n);
    await byCount.releaseAll();
    assert.deepEqual(byCount.sent, [[1, 1], [1, 1], [1]]);

    const byWeight = windowOf({ maxInFlight: 1, maxItems: 10, maxWeight: 5 });
    for (const n of [9, 3, 3, 1]) byWeight.window.add(n);
    await byWeight.releaseAll();
    assert.deepEqual(byWeight.sent, [[9], [3, 3], [1]]);
  });
});
