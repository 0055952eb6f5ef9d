import { expect, test } from "@playwright/test";
import { demo, reviewPage, signIn } from "./support";

test.beforeEach(async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/overview$/);
  await page.getByRole("link", { name: "Events", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Events", level: 1 })).toBeVisible();
});

test("an event is created, published, given a ticket type and cancelled", async ({ page }) => {
  await reviewPage(page, "events");
  const name = `e2e event ${Date.now()}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Venue").selectOption({ label: "Hamnmagasinet" });
  await page.getByLabel("Starts (UTC)").fill("2027-03-01T19:00");
  await page.getByLabel("Ends (UTC)").fill("2027-03-01T23:00");
  await page.getByLabel("Description (optional)").fill("Made by the e2e test");
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page.getByText(`Event “${name}” created as a draft.`)).toBeVisible();

  const row = page.getByTestId("event-row").filter({ hasText: name });
  await expect(row).toContainText("draft");
  await expect(row).toContainText("1 Mar 2027, 19:00 UTC");
  await row.getByRole("button", { name: `Publish ${name}` }).click();
  await expect(row).toContainText("published");

  await row.getByRole("link", { name }).click();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await expect(page.getByText("No ticket types yet")).toBeVisible();
  await page.getByLabel("Name", { exact: true }).first().fill("Standing");
  await page.getByLabel(/^Price/).fill("295.50");
  await page.getByLabel("Tickets on offer").fill("400");
  await page.getByLabel("Sale starts (UTC)").fill("2026-01-01T09:00");
  await page.getByLabel("Sale ends (UTC)").fill("2027-03-01T19:00");
  await page.getByRole("button", { name: "Add ticket type" }).click();
  const ticketRow = page.getByTestId("ticket-type-row").filter({ hasText: "Standing" });
  await expect(ticketRow).toContainText("295.50");
  await expect(ticketRow).toContainText("0 / 400");
  await reviewPage(page, "event-detail");

  await page.getByRole("button", { name: `Cancel event ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Cancel “${name}”?` });
  await expect(dialog).toContainText("paid order is refunded");
  await dialog.getByRole("button", { name: "Cancel event" }).click();
  await expect(page.getByText("cancelled", { exact: true }).first()).toBeVisible();
});

test("the create form reports errors next to the fields", async ({ page }) => {
  await page.getByLabel("Starts (UTC)").fill("2027-03-01T19:00");
  await page.getByLabel("Ends (UTC)").fill("2027-03-01T18:00");
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page.getByText("Give the event a name")).toBeVisible();
  await expect(page.getByText("Choose a venue", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Name", { exact: true }).fill("Backwards");
  await page.getByLabel("Venue").selectOption({ label: "Hamnmagasinet" });
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page.getByText("Must be after starts_at")).toBeVisible();
  await expect(page.getByLabel("Ends (UTC)")).toHaveAttribute("aria-invalid", "true");
});

test("deleting an event with orders asks first, then refunds its paid orders", async ({ page, request }) => {
  const name = "Höstrock i Malmö";
  const row = page.getByTestId("event-row").filter({ hasText: name });
  const eventId = (await row.getByRole("link", { name }).getAttribute("href"))!.split("/").pop()!;
  const headers = { Authorization: `Bearer ${demo().apiKey}` };
  const completed = async () => {
    const response = await request.get(`/v1/orders?event_id=${eventId}&status=completed`, { headers });
    expect(response.status()).toBe(200);
    return ((await response.json()) as { meta: { total: number } }).meta.total;
  };
  expect(await completed()).toBeGreaterThan(0);

  await row.getByRole("button", { name: `Delete ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Delete “${name}”?` });
  await expect(dialog).toContainText("tickets are cancelled and all paid orders are refunded");
  await expect(dialog).toContainText("irreversible");
  await reviewPage(page, "events-delete-dialog");
  await dialog.getByRole("button", { name: "Keep event" }).click();
  await expect(row).toHaveCount(1);

  await row.getByRole("button", { name: `Delete ${name}` }).click();
  await dialog.getByRole("button", { name: "Delete event" }).click();
  await expect(row).toHaveCount(0);
  expect(await completed()).toBe(0);
  const refunded = await request.get(`/v1/orders?event_id=${eventId}&status=refunded`, { headers });
  expect(((await refunded.json()) as { meta: { total: number } }).meta.total).toBeGreaterThan(0);
});

test("venues are listed and created", async ({ page }) => {
  await page.getByRole("link", { name: "Venues", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Venues", level: 1 })).toBeVisible();
  await expect(page.getByTestId("venue-row")).toHaveCount(4);
  await reviewPage(page, "venues");
  await page.getByRole("button", { name: "Create venue" }).click();
  await expect(page.getByText("Enter the city")).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill("Ny scen");
  await page.getByLabel("Street", { exact: true }).fill("Storgatan 1");
  await page.getByLabel("City", { exact: true }).fill("Lund");
  await page.getByLabel("Postal code", { exact: true }).fill("222 22");
  await page.getByLabel("Country", { exact: true }).fill("se");
  await page.getByLabel("Capacity", { exact: true }).fill("300");
  await page.getByRole("button", { name: "Create venue" }).click();
  await expect(page.getByTestId("venue-row").filter({ hasText: "Ny scen" })).toContainText("Lund, SE");
});
