// The bench worker's bundle (BENCH_WORKFLOWS=1): the product's workflows plus the bench-only ones.
export * from '../../workflows';
export { benchSleepUntil } from './benchSleepUntil';
export { benchTrivial } from './benchTrivial';
