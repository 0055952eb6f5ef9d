import { InngestCommHandler, type Inngest, type InngestFunction } from "inngest";

/** One request of the execution protocol, as the Inngest executor sends it to `/api/inngest`. */
export interface StepRequest {
  fnId: string;
  stepId: string;
  body: unknown;
}
export type StepTransport = (request: StepRequest) => Promise<{ status: number; body: string }>;

/** The SDK's own handler, called in memory: what `/api/inngest` runs, without HTTP. */
export function inProcessTransport(client: Inngest.Any, functions: readonly InngestFunction.Any[]): StepTransport {
  const handler = new InngestCommHandler({
    frameworkName: "in-process",
    client,
    functions: [...functions],
    handler: (request: StepRequest) => ({
      body: () => request.body,
      headers: () => null,
      method: () => "POST",
      url: () => new URL(`http://in-process.invalid/api/inngest?${new URLSearchParams({ fnId: request.fnId, stepId: request.stepId })}`),
      transformResponse: ({ status, body }: { status: number; body: string }) => ({ status, body }),
    }),
  });
  return handler.createHandler() as StepTransport;
}
