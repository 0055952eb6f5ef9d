/**
 * Inngest's checkpoint API for the runs this process's engines execute. The SDK (v4) runs a function's steps
 * one after another within one handler call and reports each step it ran to `POST /v1/checkpoint/:runId/async`
 * instead of ending the call there, when the executor's request names the function (`ctx.fn_id`, as Inngest's does).
 * An engine registers each run it executes; a checkpoint memoizes the run's steps as a response's would.
 */

/** A step operation as the SDK reports it (its id is the hashed step id). */
export interface StepOp {
  id: string;
  op: string;
  name?: string;
  data?: unknown;
  error?: unknown;
}

type Recorder = (ops: readonly StepOp[]) => boolean;

// On globalThis because Next.js bundles may each hold their own copy of this module.
const registry = globalThis as typeof globalThis & { __ticketingRunCheckpoints?: Map<string, Recorder> };
const recorders = (registry.__ticketingRunCheckpoints ??= new Map());

/** Takes the run's checkpoints until the returned function is called. */
export function acceptCheckpoints(runId: string, record: Recorder): () => void {
  recorders.set(runId, record);
  return () => recorders.delete(runId);
}

const CHECKPOINT_PATH = /^\/v1\/checkpoint\/([^/]+)\/async$/;

/**
 * Answers a request to Inngest's API that is a run's checkpoint (`null` for any other request): 200 when the run's
 * engine took the steps, 404 when no engine of this process runs it or it refused them.
 */
export function answerCheckpoint(pathname: string, body: string): Response | null {
  const match = CHECKPOINT_PATH.exec(pathname);
  if (!match) return null;
  const { steps } = JSON.parse(body) as { steps: StepOp[] };
  return recorders.get(decodeURIComponent(match[1]!))?.(steps)
    ? Response.json({ ok: true })
    : Response.json({ error: "no such run in this process" }, { status: 404 });
}
