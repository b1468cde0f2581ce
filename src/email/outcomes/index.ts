// Delivery outcomes of sent emails: recorded from the return path (src/email/returnPath) or simulated for test keys.
export { messageOutcomes, type MessageOutcomes, type OutcomeState } from './state';
export { messageOutcomesShape } from './schema';
export { recordOutcome, type RecordResult } from './record';
export { simulateTestOutcomes, SIMULATOR_DOMAIN } from './simulate';
export { OUTCOME_EVENT_TYPES, type Outcome, type OutcomeEventType } from './types';
