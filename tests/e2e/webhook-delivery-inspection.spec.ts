import { expect, test } from "@playwright/test";
import { createOrder, reloadUntil, reviewPage, signIn, startReceiver } from "./support";

test.beforeEach(async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/overview$/);
});

test("a delivery shows its payload and each attempt's headers; deliveries are found by order, status and time", async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const receiver = await startReceiver();
  try {
    await page.getByRole("link", { name: "Integrations" }).click();
    await page.getByLabel("Endpoint URL").fill(receiver.url);
    await page.getByRole("button", { name: "Add webhook" }).click();
    await expect(page.getByRole("status").filter({ hasText: "added" })).toBeVisible();
    const integration = page.getByTestId("integration").filter({ hasText: receiver.url });

    const order = await createOrder(request);
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(1);
    const sent = receiver.received[0]!;
    const deliveryId = sent.headers["x-webhook-delivery-id"] as string;

    // Found by order number, with a human status filter; the row links to its order. Other specs leave
    // integrations of the demo organization that also get this order, so the filter names ours too.
    await page.getByRole("link", { name: "Deliveries" }).click();
    await page.getByLabel("Integration", { exact: true }).selectOption({ label: receiver.url });
    await page.getByLabel("Order", { exact: true }).fill(String(order.order_number));
    await page.getByRole("checkbox", { name: "Success" }).check();
    await page.getByRole("checkbox", { name: "Permanently failed" }).check();
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/status=Success&status=PermanentlyFailed/);
    const rows = page.getByTestId("delivery-row");
    await reloadUntil(page, rows.first(), "Success");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(deliveryId);
    await expect(rows.first().getByRole("link", { name: `Order #${order.order_number}` })).toBeVisible();
    await reviewPage(page, "deliveries-filtered");

    // A window before the order finds nothing; the filters stay filled in.
    await page.getByLabel("Created before (UTC)").fill("2020-01-01T00:00");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page.getByText("No delivery matches these filters.")).toBeVisible();
    await expect(page.getByLabel("Order", { exact: true })).toHaveValue(String(order.order_number));
    await expect(page.getByRole("checkbox", { name: "Permanently failed" })).toBeChecked();
    await page.getByRole("link", { name: "Clear" }).click();

    // The delivery's page: payload formatted, "Copy raw" gives the exact bytes, headers of both sides.
    await page.goto(`/deliveries/${deliveryId}`);
    const payload = page.getByTestId("payload");
    await expect(payload).toContainText(`"order_number": ${order.order_number}`);
    await page.getByRole("button", { name: "Copy raw" }).click();
    await expect(page.getByText("Copied", { exact: true })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(sent.body);
    const attempt = page.getByTestId("attempt").first();
    await expect(attempt.getByTestId("request-headers")).toContainText(`X-Webhook-Delivery-ID: ${deliveryId}`);
    await expect(attempt.getByTestId("request-headers")).toContainText(`X-Webhook-Signature: ${sent.headers["x-webhook-signature"] as string}`);
    await expect(attempt.getByTestId("response-headers")).toContainText("content-type: text/plain");
    await expect(attempt.getByTestId("response-body")).toHaveText("received");
    await expect(attempt.locator("time")).toHaveText(/\d{2}:\d{2}:\d{2} UTC$/);
    await reviewPage(page, "delivery-detail");

    // The delivery links to its order, whose page lists its deliveries.
    await page.getByRole("link", { name: `Order #${order.order_number}` }).click();
    await expect(page).toHaveURL(/\/orders\/[0-9a-f-]{36}$/);
    const orderDeliveries = page.getByRole("region", { name: /Webhook deliveries/ });
    await expect(orderDeliveries.getByTestId("delivery-row").filter({ hasText: deliveryId })).toHaveCount(1);
    await reviewPage(page, "order-deliveries");

    // Redeliver asks first; the new delivery names the original, which lists it, and the header says so.
    await page.goto(`/deliveries/${deliveryId}`);
    await page.getByRole("button", { name: `Redeliver ${deliveryId}` }).click();
    const dialog = page.getByRole("dialog", { name: "Send this delivery again?" });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    expect(receiver.received).toHaveLength(1);
    await page.getByRole("button", { name: `Redeliver ${deliveryId}` }).click();
    await dialog.getByRole("button", { name: "Redeliver" }).click();
    await expect(page).not.toHaveURL(new RegExp(`/deliveries/${deliveryId}$`));
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(2);
    expect(receiver.received[1]!.headers["x-webhook-redelivery-of"]).toBe(deliveryId);
    await page.getByRole("link", { name: deliveryId }).click();
    await expect(page.getByRole("link", { name: receiver.received[1]!.headers["x-webhook-delivery-id"] as string })).toBeVisible();

    // A test delivery is labelled "Test" in the list.
    await page.getByRole("link", { name: "Integrations" }).click();
    await integration.getByRole("button", { name: `Send test delivery to ${receiver.url}` }).click();
    await expect(integration.getByRole("link", { name: /Test delivery queued/ })).toBeVisible();
    await page.getByRole("link", { name: "Deliveries" }).click();
    await expect(page.getByTestId("delivery-row").first()).toContainText("Test");
  } finally {
    await receiver.close();
  }
});
