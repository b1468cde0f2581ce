import { groundingStore, type GroundingRow } from './groundingStore';

export interface JourneyStage {
  name: string;
  description: string | null;
}

export interface JourneyRow extends GroundingRow {
  /** In journey order, as the client sent them. */
  stages: JourneyStage[];
}

export type JourneyFields = Partial<Pick<JourneyRow, 'name' | 'description' | 'stages'>>;

const journeys = groundingStore<
  JourneyRow,
  JourneyFields,
  JourneyFields & { name: string; stages: JourneyStage[] },
  'id' | 'name' | 'stages'
>({
  table: 'customer_journeys',
  jsonColumns: ['stages'],
  refColumns: ['id', 'name', 'stages'],
});

// A deleted journey: content items that named it keep existing with `journey_id` null (FK on delete set null).
export const {
  list: listJourneys,
  find: findJourney,
  lockRef: lockJourneyRef,
  insert: insertJourney,
  update: updateJourney,
  delete: deleteJourney,
} = journeys;
