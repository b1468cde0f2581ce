// The test worker's bundle: the product's workflows plus workflows defined only for tests.
export * from '../../workflows';
