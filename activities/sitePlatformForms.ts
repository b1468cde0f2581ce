import { importFormsPage, type FormsPageInput, type FormsPageResult } from '../src/sitePlatform/forms/service';
import type { ActivityDeps } from './deps';
import { whileHeartbeating } from './heartbeat';

/** Side effects of the forms backfill job: one platform page of submissions into the ledger per call. */
export function createSitePlatformFormsActivities(deps: ActivityDeps) {
  const platform = { ...deps, secretHashKey: deps.config.SECRET_HASH_KEY ?? '' };
  return {
    /**
     * Lists one page and records it (historical rows, one transaction), so submissions never enter workflow history.
     * A page redone after a worker died finds its rows present and counts them as `alreadyPresent`.
     */
    async importFormSubmissionsPage(input: FormsPageInput): Promise<FormsPageResult> {
      return whileHeartbeating(() => importFormsPage(platform, input));
    },
  };
}
