// The test worker's bundle: the product's workflows plus workflows defined only for tests.
export * from '../../workflows';
export { failingJobWorkflow } from './failingJob';
export { quickJobWorkflow } from './quickJob';
export { signaledJobWorkflow } from './signaledJob';
export { steppedJobWorkflow } from './steppedJob';
