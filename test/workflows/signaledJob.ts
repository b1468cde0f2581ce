import { condition, defineSignal, setHandler } from '@temporalio/workflow';
import { trackProgress } from '../../workflows/progress';

/** Test-only: one progress step per `advance` signal, done on `finish` (with the signal's value as its result). */
export const advanceSignal = defineSignal('advance');
export const finishSignal = defineSignal<[string]>('finish');

export async function signaledJobWorkflow(input: { total: number }): Promise<{ value: string; done: number }> {
  const progress = trackProgress('working', input.total);
  let value: string | undefined;
  setHandler(advanceSignal, () => progress.advance());
  setHandler(finishSignal, (v) => {
    value = v;
  });
  await condition(() => value !== undefined);
  return { value: value!, done: progress.current.done };
}
