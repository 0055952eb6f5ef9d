import { expect, test } from "@playwright/test";
import { verifyWebhook } from "../../lib/webhooks/verify";
import { createOrder, reloadUntil, reviewPage, signIn, startReceiver } from "./support";

test.beforeEach(async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/overview$/);
});

test("a webhook integration receives a signed delivery for a new order, shown with its attempts", async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const receiver = await startReceiver();
  try {
    await page.getByRole("link", { name: "Integrations" }).click();
    await expect(page.getByRole("heading", { name: "Integrations", level: 1 })).toBeVisible();

    await page.getByLabel("Endpoint URL").fill(receiver.url);
    await expect(page.getByRole("checkbox", { name: /OrderCompleted/ })).toBeChecked();
    await page.getByRole("button", { name: "Add webhook" }).click();
    await expect(page.getByRole("status").filter({ hasText: "added" })).toBeVisible();
    const integration = page.getByTestId("integration").filter({ hasText: receiver.url });
    await expect(integration).toContainText("Enabled");
    await expect(integration).toContainText("Signed");
    await expect(integration.getByTestId("signing-secret")).toHaveCount(0);

    await integration.getByRole("button", { name: `Reveal secret of ${receiver.url}` }).click();
    const secret = (await integration.getByTestId("signing-secret").textContent())?.trim() ?? "";
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    await integration.getByRole("button", { name: "Copy secret" }).click();
    await expect(integration.getByText("Copied", { exact: true })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await reviewPage(page, "integrations");

    const order = await createOrder(request);

    await page.getByRole("link", { name: "Deliveries" }).click();
    await expect(page.getByRole("heading", { name: "Deliveries", level: 1 })).toBeVisible();
    const delivery = page.getByTestId("delivery-row").filter({ hasText: receiver.url }).first();
    await reloadUntil(page, delivery, "Success");
    await expect(delivery).toContainText("OrderCompleted");

    // What the receiver got verifies with the secret shown in the dashboard and is the order just made.
    expect(receiver.received).toHaveLength(1);
    const [request1] = receiver.received;
    const payload = verifyWebhook<{ order_number: number; email: string }>(request1!.body, request1!.headers, secret);
    expect(payload.order_number).toBe(order.order_number);
    expect(payload.email).toBe("webhook.e2e@example.com");
    expect(request1!.headers["x-webhook-attempt"]).toBe("1");
    const deliveryId = request1!.headers["x-webhook-delivery-id"] as string;
    await expect(delivery).toContainText(deliveryId);

    // Filters travel in the URL; statuses carry their human labels.
    await page.getByRole("checkbox", { name: "Success" }).check();
    await page.getByLabel("Integration").selectOption({ label: receiver.url });
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/status=Success/);
    await expect(page.getByTestId("delivery-row")).toHaveCount(1);
    await reviewPage(page, "deliveries");
    // Sorting keeps the filters, and the filter form keeps the sort.
    await page.getByRole("link", { name: /^Attempts\W+sort$/ }).click();
    await expect(page).toHaveURL(/\/deliveries\?status=Success&integration_id=int_[0-9a-f]+&sort=attempts$/);
    await expect(page.getByRole("columnheader", { name: /^Attempts/ })).toHaveAttribute("aria-sort", "descending");
    await expect(page.getByTestId("delivery-row")).toHaveCount(1);
    await page.getByRole("checkbox", { name: "Success" }).uncheck();
    await page.getByRole("checkbox", { name: "Permanently failed" }).check();
    await page.getByRole("button", { name: "Filter" }).click();
    // Only the filters that have a value go into the URL (no `order_id=&created_from=&…`).
    await expect(page).toHaveURL(/\/deliveries\?status=PermanentlyFailed&integration_id=int_[0-9a-f]+&sort=attempts$/);
    await expect(page.getByText("No delivery matches these filters.")).toBeVisible();
    await page.getByRole("link", { name: "Clear" }).click();
    await expect(page).toHaveURL(/\/deliveries\?sort=attempts$/);

    await page.getByRole("link", { name: deliveryId }).click();
    await expect(page).toHaveURL(new RegExp(`/deliveries/${deliveryId}$`));
    await expect(page.getByTestId("delivery-status")).toContainText("Success");
    const attempts = page.getByTestId("attempt");
    await expect(attempts).toHaveCount(1);
    await expect(attempts.first()).toContainText("Attempt 1");
    await expect(attempts.first().getByTestId("attempt-status-code")).toHaveText("200");
    await expect(attempts.first().getByTestId("response-body")).toHaveText("received");
    await reviewPage(page, "delivery");

    // A redelivery asks first, is a new delivery of the same body, and the page moves on to it.
    await page.getByRole("button", { name: `Redeliver ${deliveryId}` }).click();
    await page.getByRole("dialog", { name: "Send this delivery again?" }).getByRole("button", { name: "Redeliver" }).click();
    await expect(page).not.toHaveURL(new RegExp(`/deliveries/${deliveryId}$`));
    await expect(page.getByRole("link", { name: deliveryId })).toBeVisible();
    await reloadUntil(page, page.getByTestId("delivery-status"), "Success");
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.body).toBe(request1!.body);
    expect(receiver.received[1]!.headers["x-webhook-delivery-id"]).not.toBe(deliveryId);

    // A test delivery carries a sample order and runs like a real one.
    await page.getByRole("link", { name: "Integrations" }).click();
    await integration.getByRole("button", { name: `Send test delivery to ${receiver.url}` }).click();
    await integration.getByRole("link", { name: /Test delivery queued/ }).click();
    // A client-side navigation: reloading before it lands would reload the integrations page.
    await expect(page).toHaveURL(/\/deliveries\/dlv_[0-9a-f]{32}$/);
    await reloadUntil(page, page.getByTestId("delivery-status"), "Success");
    expect(receiver.received).toHaveLength(3);
    verifyWebhook(receiver.received[2]!.body, receiver.received[2]!.headers, secret);
    expect(JSON.parse(receiver.received[2]!.body)).toMatchObject({ order_source: "dashboard_test" });

    // Rotation asks first and replaces the secret; disabling keeps later orders away from the receiver.
    await page.getByRole("link", { name: "Integrations" }).click();
    await integration.getByRole("button", { name: `Rotate secret of ${receiver.url}` }).click();
    const dialog = page.getByRole("dialog", { name: "Rotate the signing secret?" });
    await dialog.getByRole("button", { name: "Rotate secret" }).click();
    await expect(dialog).toBeHidden();
    await integration.getByRole("button", { name: `Reveal secret of ${receiver.url}` }).click();
    await expect(integration.getByTestId("signing-secret")).toHaveText(/^whsec_/);
    const rotated = (await integration.getByTestId("signing-secret").textContent())?.trim() ?? "";
    expect(rotated).not.toBe(secret);

    await integration.getByRole("button", { name: `Disable ${receiver.url}` }).click();
    await expect(integration).toContainText("Disabled");
    await createOrder(request);
    await page.waitForTimeout(1500);
    expect(receiver.received).toHaveLength(3);

    // Enabled again, the receiver gets the next order (and only that one: the one made while disabled stays away).
    await integration.getByRole("button", { name: `Enable ${receiver.url}` }).click();
    await expect(integration).toContainText("Enabled");
    await expect(integration.getByRole("button", { name: `Disable ${receiver.url}` })).toBeVisible();
    await page.reload();
    await expect(integration).toContainText("Enabled");
    const later = await createOrder(request);
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(4);
    const last = verifyWebhook<{ order_number: number }>(receiver.received[3]!.body, receiver.received[3]!.headers, rotated);
    expect(last.order_number).toBe(later.order_number);
  } finally {
    await receiver.close();
  }
});

test("the create form shows the URL rules and a missing event next to the fields", async ({ page }) => {
  await page.goto("/integrations");
  await page.getByLabel("Endpoint URL").fill("ftp://example.com/hook");
  await page.getByRole("checkbox", { name: /OrderCompleted/ }).uncheck();
  await page.getByRole("button", { name: "Add webhook" }).click();
  await expect(page.getByText("Choose at least one event")).toBeVisible();

  await page.getByRole("checkbox", { name: /OrderCompleted/ }).check();
  await page.getByRole("button", { name: "Add webhook" }).click();
  await expect(page.getByText("URL must use https:// or http://")).toBeVisible();
  await expect(page.getByLabel("Endpoint URL")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Endpoint URL")).toHaveValue("ftp://example.com/hook");
  await expect(page.getByTestId("integration").filter({ hasText: "ftp://example.com" })).toHaveCount(0);
});

test("integrations are paged and sorted on the server through the URL", async ({ page }) => {
  await page.goto("/integrations");
  const stamp = Date.now();
  for (const name of ["a", "b"]) {
    await page.getByLabel("Endpoint URL").fill(`http://127.0.0.1:9/${stamp}/${name}`);
    await page.getByRole("button", { name: "Add webhook" }).click();
    await expect(page.getByTestId("integration").filter({ hasText: `/${stamp}/${name}` })).toBeVisible();
  }
  const total = Number((await page.getByTestId("integrations-count").textContent())?.match(/^\d+/)?.[0]);
  expect(total).toBeGreaterThanOrEqual(2);

  // Newest first by default: the last one added leads.
  await page.goto("/integrations?per_page=1");
  const rows = page.getByTestId("integration");
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(`/${stamp}/b`);
  const nav = page.getByRole("navigation", { name: "Pages" });
  await expect(nav).toContainText(`Page 1 of ${total}`);
  await nav.getByRole("link", { name: "Next page" }).click();
  await expect(page).toHaveURL(/\/integrations\?page=2&per_page=1$/);
  await expect(rows).toContainText(`/${stamp}/a`);

  await page.getByRole("link", { name: /^URL\W+sort$/ }).click();
  await expect(page).toHaveURL(/\/integrations\?sort=url&per_page=1$/);
  await expect(page.getByRole("columnheader", { name: /^URL/ })).toHaveAttribute("aria-sort", "ascending");
  await reviewPage(page, "integrations-paged");
});

test("unknown and malformed delivery ids are not found", async ({ page }) => {
  for (const id of ["dlv_00000000000040008000000000000000", "nonsense"]) {
    expect((await page.goto(`/deliveries/${id}`))?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  }
});
