import { defineWorkflow } from '../../workflows/defineWorkflow';

/** The bench's trivial job (bench/workflows/benchTrivial.ts): started raw and through the bench job route. */
export const benchTrivialContract = defineWorkflow<[], void>('benchTrivial', 'bench-trivial');
