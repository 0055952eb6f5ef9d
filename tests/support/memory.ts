import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let gc: (() => void) | undefined;

/** A full garbage collection; test workers do not start with --expose-gc, so V8's gc() is exposed at run time. */
export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString("--expose-gc");
    gc = runInNewContext("gc") as () => void;
  }
  gc();
}

/**
 * Memory still referenced right now: the JS heap plus ArrayBuffers (sockets hand out Buffers). Collected
 * twice with a turn of the event loop between, since a buffer's memory is released after its collection.
 */
async function retainedBytes(): Promise<number> {
  collectGarbage();
  await new Promise((resolve) => setImmediate(resolve));
  collectGarbage();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/**
 * Runs `work` and samples retained memory every `everyMs` while it is in flight; returns its result and
 * how far the samples spread. Only what is still referenced counts, so a reader that keeps every chunk it
 * is sent grows from sample to sample, and one that drops them stays flat.
 */
export async function retainedGrowth<T>(work: () => Promise<T>, everyMs = 100): Promise<{ result: T; growthBytes: number; samples: number }> {
  const samples: number[] = [];
  let done = false;
  const sampling = (async () => {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, everyMs));
      if (done) return;
      samples.push(await retainedBytes());
    }
  })();
  try {
    const result = await work();
    return { result, growthBytes: Math.max(...samples) - Math.min(...samples), samples: samples.length };
  } finally {
    done = true;
    await sampling;
  }
}
