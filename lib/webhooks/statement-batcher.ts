export interface BatcherOptions {
  /** Most inputs one statement carries. */
  maxBatch: number;
  /** Statements of this kind running at once; calls made meanwhile wait and go together in the next one. */
  inFlight: number;
}

interface Waiter<I, O> {
  input: I;
  resolve(output: O): void;
  reject(error: unknown): void;
}

/**
 * Group commit for one kind of statement: each caller asks for its own input, and the calls made while `inFlight`
 * statements are running go together as one (`run` returns one output per input, in order). A lone call goes at
 * once; a busy delivery worker sends one statement for dozens of deliveries instead of one each (the statement's
 * building, its round trip and PostgreSQL's per-statement work were most of a delivery's database cost).
 * When a statement of several inputs fails, each is run again alone, so a bad row fails only its own caller.
 */
export function statementBatcher<I, O>(run: (inputs: I[]) => Promise<O[]>, options: BatcherOptions): (input: I) => Promise<O> {
  let queue: Waiter<I, O>[] = [];
  let running = 0;
  let scheduled = false;

  const settle = async (batch: Waiter<I, O>[]) => {
    try {
      const outputs = await run(batch.map((w) => w.input));
      batch.forEach((w, i) => w.resolve(outputs[i]!));
    } catch (error) {
      if (batch.length === 1) batch[0]!.reject(error);
      else await Promise.all(batch.map((w) => settle([w])));
    }
  };
  const flush = () => {
    scheduled = false;
    while (queue.length && running < options.inFlight) {
      const batch = queue.slice(0, options.maxBatch);
      queue = queue.slice(batch.length);
      running++;
      void settle(batch).finally(() => {
        running--;
        flush();
      });
    }
  };

  return (input) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ input, resolve, reject });
      // The calls of this turn of the event loop's microtasks go together even when nothing is running.
      if (!scheduled && running < options.inFlight) {
        scheduled = true;
        queueMicrotask(flush);
      }
    });
}
