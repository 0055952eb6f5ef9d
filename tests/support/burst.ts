/**
 * Calls `request(i)` for i = 0 … total-1 with at most `concurrency` calls in flight, and stops starting new
 * ones once `stop()` is true. Resolves with what each started call returned, in order of i.
 */
export async function burst<T>(
  total: number,
  concurrency: number,
  request: (index: number) => Promise<T>,
  stop: () => boolean = () => false,
): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total && !stop()) {
        const index = next++;
        results[index] = await request(index);
      }
    }),
  );
  return results;
}
