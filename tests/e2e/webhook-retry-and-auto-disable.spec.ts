import { expect, test } from "@playwright/test";
import { createOrder, failingWebhook, reviewPage, signIn, startReceiver } from "./support";

test("the spaced retry schedule is saved, kept across a reload, and makes the retry wait", async ({ page, request }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/overview$/);
  // The first attempt fails, the retry succeeds.
  const receiver = await startReceiver((hit) => (hit === 1 ? 500 : 200));
  try {
    await page.getByRole("link", { name: "Integrations" }).click();
    await page.getByLabel("Endpoint URL").fill(receiver.url);
    await page.getByRole("button", { name: "Add webhook" }).click();
    await expect(page.getByTestId("integration").filter({ hasText: receiver.url })).toContainText("Enabled");

    const form = page.locator("form").filter({ has: page.getByRole("combobox", { name: receiver.url }) });
    const schedule = form.getByRole("combobox", { name: receiver.url });
    await expect(schedule).toHaveValue("immediate");
    await schedule.selectOption({ label: "Spaced: 5 s doubling, up to 5 min" });
    await form.getByRole("button", { name: "Save" }).click();
    // Said once (the layout's notice), not twice.
    await expect(page.getByTestId("notice")).toHaveText("Retry schedule saved.");
    expect(await page.getByText("Retry schedule saved.").count()).toBe(1);
    // The form shows what was saved, not the schedule it was first rendered with.
    await expect(schedule).toHaveValue("nominal");
    await reviewPage(page, "integrations-retry-schedule");

    await page.reload();
    await expect(schedule).toHaveValue("nominal");
    await expect(page.getByRole("combobox", { name: receiver.url })).toHaveCount(1);

    // What the engine does shows the stored schedule: on the spaced one the retry waits for next_retry_at, 5 s (±15 %)
    // after the first failure.
    await createOrder(request);
    // The failed first attempt marks the webhook failing (its deliveries run a few at a time) until one succeeds.
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(1);
    const failing = page.getByTestId("integration").filter({ hasText: receiver.url }).getByTestId("integration-failing");
    await expect(async () => {
      await page.reload();
      await expect(failing).toContainText("Failing since", { timeout: 500 });
    }).toPass({ timeout: 4_000 });
    await reviewPage(page, "integrations-failing");
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(2);
    const [first, second] = receiver.received;
    expect([first!.headers["x-webhook-attempt"], second!.headers["x-webhook-attempt"]]).toEqual(["1", "2"]);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(4_000);
    await expect(async () => {
      await page.reload();
      await expect(failing).toHaveCount(0, { timeout: 500 });
    }).toPass({ timeout: 10_000 });
  } finally {
    await receiver.close();
  }
});

test("a webhook disabled for failing is named on the overview and integrations pages until it is enabled again", async ({ page }) => {
  const { login, url } = failingWebhook();
  await signIn(page, login);
  await expect(page).toHaveURL(/\/overview$/);

  const banner = page.getByTestId("failing-integrations-banner");
  await expect(banner).toBeVisible();
  await expect(banner).toHaveAttribute("role", "alert");
  await expect(banner).toContainText("A webhook was disabled because its deliveries kept failing");
  await expect(banner.getByRole("listitem")).toHaveText([new RegExp(`^${url.replace(/[.]/g, "\\.")} \\(since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\)$`)]);
  await reviewPage(page, "overview-failing-webhook");

  await banner.getByRole("link", { name: "Integrations" }).click();
  await expect(page.getByRole("heading", { name: "Integrations", level: 1 })).toBeVisible();
  await expect(banner).toContainText(url);
  const integration = page.getByTestId("integration").filter({ hasText: url });
  await expect(integration).toContainText("Disabled");
  await reviewPage(page, "integrations-failing-webhook");

  await integration.getByRole("button", { name: `Enable ${url}` }).click();
  await expect(integration).toContainText("Enabled");
  await expect(banner).toHaveCount(0);
  await page.reload();
  await expect(integration).toContainText("Enabled");
  await expect(banner).toHaveCount(0);
  await page.getByRole("link", { name: "Overview" }).click();
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  await expect(banner).toHaveCount(0);
});
