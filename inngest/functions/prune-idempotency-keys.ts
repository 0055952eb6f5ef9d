import { inngest } from "@/inngest/client";
import { pruneExpiredIdempotencyKeys } from "@/lib/http/idempotency";

export const pruneIdempotencyKeys = inngest.createFunction(
  { id: "prune-idempotency-keys", triggers: [{ cron: "* * * * *" }], retries: 0, singleton: { mode: "skip" } },
  async ({ step }) => ({ pruned: await step.run("prune-expired", () => pruneExpiredIdempotencyKeys()) }),
);
