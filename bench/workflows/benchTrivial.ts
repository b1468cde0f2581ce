/** A job that does nothing: what a worker pays to run a job at all (cluster scenario). */
export async function benchTrivial(): Promise<void> {}
