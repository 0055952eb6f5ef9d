import { expect, test } from "@playwright/test";
import { createOrder, reviewPage, signIn, startReceiver } from "./support";

const ATTEMPTS = 5;

test("failed deliveries are recovered from the integration page, whose progress runs until the recovery is done", async ({ page, request }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/overview$/);
  // Down for every attempt of the first delivery; back up (slowly, so the recovery is seen running) afterwards.
  const receiver = await startReceiver(
    (hit) => (hit <= ATTEMPTS ? 503 : 200),
    (hit) => (hit > ATTEMPTS ? 6_000 : 0),
  );
  try {
    await page.getByRole("link", { name: "Integrations" }).click();
    await page.getByLabel("Endpoint URL").fill(receiver.url);
    await page.getByRole("button", { name: "Add webhook" }).click();
    const integration = page.getByTestId("integration").filter({ hasText: receiver.url });
    await expect(integration).toContainText("Enabled");

    // An order whose delivery fails all its attempts (the schedule retries at once).
    const windowStart = new Date(Date.now() - 60_000).toISOString().slice(0, 16);
    await createOrder(request);
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(ATTEMPTS);
    const integrations = (await (await page.request.get("/webhooks/integrations")).json()) as { data: { id: string; url: string }[] };
    const integrationId = integrations.data.find((candidate) => candidate.url === receiver.url)!.id;
    await expect
      .poll(async () => {
        const failed = await page.request.get(`/webhooks/deliveries?integration_id=${integrationId}&status=PermanentlyFailed`);
        return ((await failed.json()) as { data: unknown[] }).data.length;
      })
      .toBe(1);

    await page.reload();
    await integration.getByRole("button", { name: `Recover failed of ${receiver.url}` }).click();
    const dialog = page.getByRole("dialog", { name: "Recover failed deliveries" });
    await dialog.getByLabel("Since (UTC)").fill(windowStart);
    await reviewPage(page, "integration-recover-dialog");
    await dialog.getByRole("button", { name: "Recover" }).click();
    await expect(page.getByTestId("notice")).toHaveText("1 failed deliveries queued for redelivery.");

    // Exact progress of this recovery: running while the receiver takes its time, then done.
    const progress = integration.getByTestId("recovery-progress");
    await expect(progress).toHaveAttribute("data-state", "running");
    await expect(progress).toContainText("0 done, 0 failed, 1 queued of 1");
    await expect(progress.getByRole("progressbar")).toBeVisible();
    await expect(progress).toHaveAttribute("data-state", "finished", { timeout: 30_000 });
    await expect(progress).toContainText("Recovery finished");
    await expect(progress).toContainText("1 done, 0 failed, 0 queued of 1");
    expect(receiver.received).toHaveLength(ATTEMPTS + 1);
    expect(receiver.received[ATTEMPTS]!.headers["x-webhook-redelivery-of"]).toBe(receiver.received[0]!.headers["x-webhook-delivery-id"]);
    await reviewPage(page, "integration-recovered");

    // A second recovery of the same window has nothing left to send.
    await integration.getByRole("button", { name: `Recover failed of ${receiver.url}` }).click();
    await dialog.getByLabel("Since (UTC)").fill(windowStart);
    await dialog.getByRole("button", { name: "Recover" }).click();
    await expect(page.getByTestId("notice")).toHaveText("No failed deliveries to recover in that window.");
    await expect(progress).toContainText("1 done, 0 failed, 0 queued of 1");
    expect(receiver.received).toHaveLength(ATTEMPTS + 1);
  } finally {
    await receiver.close();
  }
});
