/**
 * For the Playwright run: an organization of its own (so the demo organization's pages stay as they are)
 * whose one webhook was disabled automatically. Its deliveries fail against a closed port through the
 * real attempt code, and the real auto-disable check, run with a short span, disables it.
 */
import { db } from "@/db/client";
import { webhookDeliveries } from "@/db/schema";
import { createUser } from "@/lib/auth/users";
import { fromPublicId } from "@/lib/ids";
import { createOrganization } from "@/lib/organizations/organizations";
import { attemptDelivery } from "@/lib/webhooks/attempt";
import { AUTO_DISABLE_MIN_FAILURES, disableFailingIntegrations } from "@/lib/webhooks/auto-disable";
import { createIntegration } from "@/lib/webhooks/integrations";

export interface FailingWebhookState {
  login: { email: string; password: string };
  url: string;
}

/** Short, as in the auto-disable integration test: the configured default (5 days) cannot pass during a run. */
const SPAN_MS = 1_000;

export async function seedFailingWebhook(): Promise<FailingWebhookState> {
  const login = { email: "failing-webhook@e2e.test", password: "failing-webhook-password" };
  const organization = await createOrganization({ name: "Failing webhook org", currency: "SEK" });
  await createUser({ organizationId: organization.id, ...login });
  // Port 9 (discard) is closed: every attempt fails with a refused connection.
  const integration = await createIntegration({ organizationId: organization.id, url: "http://127.0.0.1:9/failing-receiver" });
  const deliveries = await db
    .insert(webhookDeliveries)
    .values(
      Array.from({ length: AUTO_DISABLE_MIN_FAILURES }, () => ({
        organizationId: organization.id,
        integrationId: fromPublicId("integration", integration.id)!,
        eventType: "OrderCompleted" as const,
        payload: '{"e2e":"failing webhook"}',
      })),
    )
    .returning({ id: webhookDeliveries.id });
  for (const { id } of deliveries) {
    while (!(await attemptDelivery(id)).done);
  }
  await new Promise((resolve) => setTimeout(resolve, SPAN_MS));
  const disabled = await disableFailingIntegrations(SPAN_MS);
  if (!disabled.includes(fromPublicId("integration", integration.id)!)) {
    throw new Error(`seedFailingWebhook: ${integration.url} was not disabled (disabled: ${JSON.stringify(disabled)})`);
  }
  return { login, url: integration.url };
}
