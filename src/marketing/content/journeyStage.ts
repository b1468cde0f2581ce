import type { Knex } from '../../db/knex';
import { invalidField } from '../../http/fieldErrors';
import { journeyRef, stageNamed } from '../grounding/service';

interface StageState {
  journey_id: string | null;
  journey_stage: string | null;
}
interface StageInput {
  journey_id?: string | null;
  journey_stage?: string | null;
}

/**
 * The journey_stage a write stores (doc1: "the stage name as the journey map spells it"), or undefined to leave it.
 * With a journey, the stage must be one of its map's stages, matched ignoring case and stored in the map's spelling
 * (400 otherwise); the stage sent is checked against the journey sent, a kept stage against a newly sent journey.
 * Without a journey it is free text. An unchanged pair (an editor's echo) is not re-checked, so a map edited later
 * never blocks saving the item. Runs after the journey id itself was checked against the account.
 */
export async function resolveJourneyStage(
  trx: Knex.Transaction,
  accountId: string,
  stored: StageState,
  input: StageInput,
): Promise<string | null | undefined> {
  if (input.journey_id === undefined && input.journey_stage === undefined) return undefined;
  const journeyId = input.journey_id !== undefined ? input.journey_id : stored.journey_id;
  const stage = input.journey_stage !== undefined ? input.journey_stage : stored.journey_stage;
  if (journeyId === null || stage === null) return input.journey_stage;
  if (journeyId === stored.journey_id && stage === stored.journey_stage) return input.journey_stage;

  const journey = await journeyRef(trx, accountId, journeyId);
  if (!journey) return input.journey_stage;
  const match = stageNamed(journey, stage);
  if (!match) {
    const names = journey.stages.map((s) => s.name).join(', ');
    throw invalidField('body.journey_stage', `must name a stage of the journey map "${journey.name}" (${names}); "${stage}" is not one`);
  }
  return match.name;
}
