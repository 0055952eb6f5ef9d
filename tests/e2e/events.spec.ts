import { expect, test, type APIRequestContext } from "@playwright/test";
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
  await expect(page.getByText("Must be after the start", { exact: true })).toBeVisible();
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
  // The festival is over: deleting it needs the second, explicit confirmation.
  await expect(dialog.getByRole("button", { name: "Delete event" })).toBeDisabled();
  await dialog.getByRole("checkbox", { name: /already ended/ }).check();
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

/** Creates through the demo API key what a test needs as its starting point, and returns the created body. */
async function created<T>(request: APIRequestContext, path: string, data: unknown): Promise<T> {
  const response = await request.post(path, { data, headers: { Authorization: `Bearer ${demo().apiKey}` } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as T;
}

const venueBody = (name: string) => ({
  name,
  address: { street: "Kungsgatan 2", city: "Lund", postal_code: "222 21", country: "SE" },
  capacity: 250,
});

test("a venue is edited, and an unused one deleted after confirming", async ({ page, request }) => {
  const name = `e2e venue ${Date.now()}`;
  await created(request, "/v1/venues", venueBody(name));
  await page.getByRole("link", { name: "Venues", exact: true }).click();
  const row = page.getByTestId("venue-row").filter({ hasText: name });
  await row.getByRole("link", { name: `Edit ${name}` }).click();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await expect(page.getByLabel("Capacity")).toHaveValue("250");
  await expect(page.getByLabel("Country")).toHaveValue("SE");

  await page.getByLabel("Capacity").fill("0");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("At least 1", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Capacity")).toHaveAttribute("aria-invalid", "true");
  await reviewPage(page, "venue-edit");

  const renamed = `${name} (renamed)`;
  await page.getByLabel("Name", { exact: true }).fill(renamed);
  await page.getByLabel("City", { exact: true }).fill("Malmö");
  await page.getByLabel("Capacity").fill("320");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await expect(page.getByRole("heading", { name: renamed, level: 1 })).toBeVisible();

  await page.getByRole("link", { name: "← Venues" }).click();
  const renamedRow = page.getByTestId("venue-row").filter({ hasText: renamed });
  await expect(renamedRow).toContainText("Kungsgatan 2, 222 21 Malmö, SE");
  await expect(renamedRow).toContainText("320");

  // Keyboard only: the dialog opens from the button, Escape closes it and focus returns to the button.
  const deleteButton = renamedRow.getByRole("button", { name: `Delete ${renamed}` });
  await deleteButton.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: `Delete “${renamed}”?` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Keep venue" })).toBeFocused();
  await reviewPage(page, "venues-delete-dialog");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(deleteButton).toBeFocused();
  await expect(renamedRow).toHaveCount(1);

  await deleteButton.click();
  await dialog.getByRole("button", { name: "Delete venue" }).click();
  await expect(renamedRow).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Venues, scrollable" }).getByRole("alert")).toHaveCount(0);
  // Gone from the event form's choices as well.
  await page.getByRole("link", { name: "Events", exact: true }).click();
  await expect(page.getByLabel("Venue").getByRole("option", { name: renamed })).toHaveCount(0);
});

test("deleting a venue where events take place is refused next to its button", async ({ page }) => {
  await page.getByRole("link", { name: "Venues", exact: true }).click();
  const row = page.getByTestId("venue-row").filter({ hasText: "Hamnmagasinet" });
  await row.getByRole("button", { name: "Delete Hamnmagasinet" }).click();
  await page.getByRole("dialog", { name: "Delete “Hamnmagasinet”?" }).getByRole("button", { name: "Delete venue" }).click();
  await expect(row.getByRole("alert")).toHaveText("The venue is used by an event; delete or move its events first");
  await reviewPage(page, "venues-delete-refused");
  await page.reload();
  await expect(page.getByTestId("venue-row").filter({ hasText: "Hamnmagasinet" })).toHaveCount(1);
});

test("a ticket type's price is edited, and an unsold one deleted after confirming", async ({ page, request }) => {
  const venue = await created<{ id: string }>(request, "/v1/venues", venueBody(`e2e ticket venue ${Date.now()}`));
  const event = await created<{ id: string; name: string }>(request, "/v1/events", {
    name: `e2e ticket event ${Date.now()}`,
    venue_id: venue.id,
    starts_at: "2027-05-01T18:00:00Z",
    ends_at: "2027-05-01T22:00:00Z",
  });
  await created(request, `/v1/events/${event.id}/tickets`, {
    name: "Early bird",
    price: 24_900,
    quantity_total: 100,
    sale_starts_at: "2026-01-01T09:00:00Z",
    sale_ends_at: "2027-05-01T18:00:00Z",
  });
  await page.goto(`/events/${event.id}`);
  const row = page.getByTestId("ticket-type-row").filter({ hasText: "Early bird" });
  await expect(row).toContainText("249.00");

  await row.getByRole("link", { name: "Edit Early bird" }).click();
  await expect(page.getByRole("heading", { name: "Early bird", level: 1 })).toBeVisible();
  await expect(page.getByLabel(/^Price/)).toHaveValue("249.00");
  await expect(page.getByLabel("Sale starts (UTC)")).toHaveValue("2026-01-01T09:00");
  await page.getByLabel(/^Price/).fill("twelve");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Enter an amount like 250.00")).toBeVisible();
  await expect(page.getByLabel(/^Price/)).toHaveAttribute("aria-invalid", "true");
  await reviewPage(page, "ticket-type-edit");

  await page.getByLabel(/^Price/).fill("199.50");
  await page.getByLabel("Tickets on offer").fill("150");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await page.getByRole("link", { name: `← ${event.name}` }).click();
  await expect(row).toContainText("199.50");
  await expect(row).toContainText("0 / 150");

  await row.getByRole("button", { name: "Delete Early bird" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete “Early bird”?" });
  await expect(dialog).toContainText("cannot be deleted");
  await dialog.getByRole("button", { name: "Delete ticket type" }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText("No ticket types yet")).toBeVisible();
});

test("a ticket type with sold tickets is not deleted, and the refusal is shown next to it", async ({ page }) => {
  await page.getByTestId("event-row").getByRole("link", { name: "Luciakonserten" }).click();
  const row = page.getByTestId("ticket-type-row").filter({ hasText: "Vuxen" });
  await row.getByRole("button", { name: "Delete Vuxen" }).click();
  await page.getByRole("dialog", { name: "Delete “Vuxen”?" }).getByRole("button", { name: "Delete ticket type" }).click();
  await expect(row.getByRole("alert")).toHaveText("Tickets of this type have been sold; it cannot be deleted");
  await page.reload();
  await expect(page.getByTestId("ticket-type-row").filter({ hasText: "Vuxen" })).toHaveCount(1);
});

test("an unknown venue or ticket type id shows the not-found page", async ({ page }) => {
  const eventHref = await page.getByTestId("event-row").getByRole("link", { name: "Nyårsgalan" }).getAttribute("href");
  for (const path of [`/venues/ven_00000000000040008000000000000000`, `/venues/evt_garbage`, `${eventHref}/ticket-types/tkt_00000000000040008000000000000000`]) {
    expect((await page.goto(path))?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" }), path).toBeVisible();
  }
});

test("events are filtered by status, sorted and paged on the server through the URL", async ({ page }) => {
  await page.getByLabel("Status").selectOption("draft");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/\/events\?status=draft$/);
  const rows = page.getByTestId("event-row");
  await expect(rows.first()).toBeVisible();
  for (const row of await rows.all()) await expect(row).toContainText("draft");
  await expect(rows.getByRole("link", { name: "Vinterfestivalen" })).toBeVisible();

  // Sorting keeps the filter; the filter form then keeps the sort.
  await page.getByRole("link", { name: /^Starts\W+sort$/ }).click();
  await expect(page).toHaveURL(/\/events\?status=draft&sort=starts_at$/);
  await expect(page.getByRole("columnheader", { name: /^Starts/ })).toHaveAttribute("aria-sort", "ascending");
  await page.getByLabel("Status").selectOption("published");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/\/events\?status=published&sort=starts_at$/);
  const times = await page.getByTestId("event-row").evaluateAll((trs) => trs.map((tr) => tr.querySelector("td:nth-child(4) time")!.getAttribute("datetime")!));
  expect(times.length).toBeGreaterThan(1);
  expect(times).toEqual([...times].sort());
  await page.getByRole("link", { name: "Clear" }).click();
  await expect(page).toHaveURL(/\/events\?sort=starts_at$/);

  // Two per page, by name: the pages together hold every event once, in the order of the whole list.
  const nameCells = rows.locator("td:first-child");
  await page.goto("/events?sort=name&per_page=100");
  const everyName = await nameCells.allTextContents();
  await page.goto("/events?sort=name&per_page=2");
  const nav = page.getByRole("navigation", { name: "Pages" });
  await expect(nav).toContainText(`Page 1 of ${Math.ceil(everyName.length / 2)}`);
  await expect(page.getByRole("columnheader", { name: /^Name/ })).toHaveAttribute("aria-sort", "ascending");
  await reviewPage(page, "events-paged");
  const paged: string[] = [];
  for (let p = 1; ; p++) {
    await expect(nav).toContainText(`Page ${p} of`);
    paged.push(...(await nameCells.allTextContents()));
    const next = nav.getByRole("link", { name: "Next page" });
    if ((await next.count()) === 0) break;
    await next.click();
  }
  expect(paged).toEqual(everyName);
});

test("venues are sorted and paged on the server through the URL", async ({ page }) => {
  await page.goto("/venues?sort=capacity&per_page=2");
  const rows = page.getByTestId("venue-row");
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole("columnheader", { name: /^Capacity/ })).toHaveAttribute("aria-sort", "descending");
  const capacities = async () => (await rows.locator("td:nth-child(3)").allTextContents()).map((text) => Number(text.replace(/\D/g, "")));
  const first = await capacities();
  expect(first[0]).toBeGreaterThanOrEqual(first[1]!);
  const nav = page.getByRole("navigation", { name: "Pages" });
  await nav.getByRole("link", { name: "Next page" }).click();
  await expect(page).toHaveURL(/\/venues\?sort=capacity&page=2&per_page=2$/);
  expect((await capacities())[0]).toBeLessThanOrEqual(first[1]!);

  await page.getByRole("link", { name: /^Name\W+sort$/ }).click();
  await expect(page).toHaveURL(/\/venues\?sort=name&per_page=2$/);
  await expect(page.getByRole("columnheader", { name: /^Name/ })).toHaveAttribute("aria-sort", "ascending");
  await reviewPage(page, "venues-paged");
});
