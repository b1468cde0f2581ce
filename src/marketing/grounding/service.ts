/**
 * What other marketing code (content, case studies, proof pack, research) reads of the grounding objects.
 * `get*` throw the coded 404; `find*` answer undefined; `*Ref` answer `{ id, name }` locked for a write that
 * references the object (undefined when it is not in the account: answer 400 invalid_reference).
 */
export { avatarRef, findAvatar, getAvatar, type AvatarRow } from './avatarService';
export { findJourney, getJourney, journeyRef, stageNamed, type JourneyRow, type JourneyStage } from './journeyService';
export { findGrid, getGrid, gridRef, type Grid, type GridResult, type GridTestimonial } from './gridService';
