// Types only: workflows import `Activities` from here, and a type import leaves the worker bundle free of I/O.
// The wiring itself is the composition root's (src/app/activities.ts).
export type { Activities } from '../src/app/activities';
export type { ActivityDeps } from './deps';
