/** The part of an Inngest function's `step` a prune needs. */
interface Steps {
  run(id: string, fn: () => Promise<number>): Promise<number>;
}

/**
 * A retention prune's run: one step per batch (each its own short transaction), until a batch comes back short
 * or `maxBatches` ran; a larger backlog goes over the next runs. Returns how many rows went.
 */
export async function pruneInBatches(step: Steps, maxBatches: number, batchSize: number, deleteBatch: () => Promise<number>) {
  let deleted = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const count = await step.run("delete-batch", deleteBatch);
    deleted += count;
    if (count < batchSize) break;
  }
  return { deleted };
}
