import { revalidateDeployment, type DeploymentDeps, type DeploymentRow } from '../../projects/deployments/service';

type Outcome = Awaited<ReturnType<typeof revalidateDeployment>>;

export type Revalidate = (deployment: DeploymentRow, tags: string[]) => Promise<Outcome>;

interface Batch {
  deployment: DeploymentRow;
  tags: Set<string>;
  waiters: Array<(outcome: Outcome) => void>;
  posted: boolean;
}

/** How long the first request of a deployment waits for others to join its post. */
export const REVALIDATION_WINDOW_MS = 50;
/** Tags one post carries at most; a fuller batch is posted at once. */
export const MAX_TAGS_PER_POST = 100;

/**
 * Coalesces the revalidations one worker asks of a deployment within a short window into one signed post carrying
 * every tag (items due at the same instant cost the site one post, not one each); each caller gets that post's
 * outcome. State of one worker process: with several worker replicas each coalesces its own share, which changes
 * only how many posts a burst makes, never which tags reach the site.
 */
export function revalidationBatcher(deps: DeploymentDeps, windowMs = REVALIDATION_WINDOW_MS): Revalidate {
  const open = new Map<string, Batch>();
  const flush = (batch: Batch) => {
    if (batch.posted) return;
    batch.posted = true;
    if (open.get(batch.deployment.id) === batch) open.delete(batch.deployment.id);
    // revalidateDeployment never throws for the site's sake; a database failure reaches every waiter as unreachable.
    void revalidateDeployment(deps, batch.deployment, [...batch.tags]).then(
      (outcome) => batch.waiters.forEach((w) => w(outcome)),
      () => batch.waiters.forEach((w) => w('unreachable')),
    );
  };
  return (deployment, tags) =>
    new Promise<Outcome>((resolve) => {
      let batch = open.get(deployment.id);
      if (batch && batch.tags.size + tags.length > MAX_TAGS_PER_POST) {
        flush(batch);
        batch = undefined;
      }
      if (!batch) {
        const fresh: Batch = { deployment, tags: new Set(), waiters: [], posted: false };
        open.set(deployment.id, fresh);
        setTimeout(() => flush(fresh), windowMs);
        batch = fresh;
      }
      for (const tag of tags) batch.tags.add(tag);
      batch.waiters.push(resolve);
    });
}
