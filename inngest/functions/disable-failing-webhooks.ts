import { inngest } from "@/inngest/client";
import { env } from "@/lib/env";
import { disableFailingIntegrations } from "@/lib/webhooks/auto-disable";

/** Auto-disable: integrations whose deliveries keep failing (see disableFailingIntegrations) stop receiving. */
export const disableFailingWebhooks = inngest.createFunction(
  { id: "disable-failing-webhooks", triggers: [{ cron: "*/5 * * * *" }], retries: 0, singleton: { mode: "skip" } },
  async ({ step }) => ({ disabled: await step.run("disable", () => disableFailingIntegrations(env.WEBHOOK_AUTO_DISABLE_AFTER)) }),
);
