import { expect, test, type Page } from "@playwright/test";
import { demo, reviewPage, signIn } from "./support";

const api = () => ({ Authorization: `Bearer ${demo().apiKey}` });

async function signedIn(page: Page) {
  await signIn(page);
  await expect(page).toHaveURL(/\/overview$/);
}

test("unknown order, event, venue and delivery pages answer 404 with the dashboard's page and a link back", async ({ page }) => {
  await signedIn(page);
  const zeros = "0".repeat(32);
  for (const [path, back] of [
    [`/orders/00000000-0000-4000-8000-000000000000`, "orders"],
    [`/events/evt_${zeros}`, "events"],
    [`/venues/ven_${zeros}`, "venues"],
    [`/deliveries/dlv_${zeros}`, "deliveries"],
  ] as const) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" }), path).toBeVisible();
    // Inside the dashboard: its navigation is there.
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await expect(page.getByRole("link", { name: `← Back to ${back}` })).toHaveAttribute("href", `/${back}`);
  }
  await reviewPage(page, "not-found");
  await page.getByRole("link", { name: "← Back to deliveries" }).click();
  await expect(page.getByRole("heading", { name: "Deliveries", level: 1 })).toBeVisible();
});

test("malformed percent-encoding on dashboard and Auth.js paths answers the 404 page, not a 500", async ({ page, request }) => {
  for (const path of ["/orders/%FF", "/events/%FF", "/venues/%E0%A4%A", "/deliveries/%", "/api/auth/%FF"]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(404);
    expect(await response.text(), path).toContain("Page not found");
  }
  const response = await page.goto("/orders/%FF");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});

test("signing in from a deep link returns to the page asked for, and never to another site", async ({ page }) => {
  await page.goto("/orders?sort=price&order=asc");
  await expect(page).toHaveURL(/\/login\?next=/);
  await page.getByLabel("Email").fill(demo().login.email);
  await page.getByLabel("Password").fill(demo().login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/orders\?sort=price&order=asc$/);
  await expect(page.getByRole("heading", { name: "Orders", level: 1 })).toBeVisible();

  await page.context().clearCookies();
  for (const next of ["//evil.example/x", "https://evil.example/", "/\\evil.example"]) {
    await page.goto(`/login?next=${encodeURIComponent(next)}`);
    await page.getByLabel("Email").fill(demo().login.email);
    await page.getByLabel("Password").fill(demo().login.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page, next).toHaveURL(/localhost:\d+\/overview$/);
    await page.context().clearCookies();
  }
});

test("at 375 px the orders and integrations lists show every value readably, and the navigation every section", async ({ page }) => {
  await signedIn(page);
  await page.setViewportSize({ width: 375, height: 812 });
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const name of ["Overview", "API keys", "Orders", "Events", "Venues", "Integrations", "Deliveries", "API reference"]) {
    const link = nav.getByRole("link", { name, exact: true });
    await expect(link).toBeInViewport({ ratio: 1 });
  }
  await expect(nav.getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs/api");

  await nav.getByRole("link", { name: "Orders", exact: true }).click();
  const row = page.getByTestId("order-row").first();
  await expect(row).toBeVisible();
  // Each value sits within the screen's width, labelled by its column.
  for (const label of ["Order", "Email", "Total", "Status"]) {
    const cell = row.locator(`td[data-label="${label}"]`);
    const box = (await cell.boundingBox())!;
    expect(box.x, label).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, label).toBeLessThanOrEqual(375);
  }
  // An e-mail address is one line (cut with an ellipsis when long), not a letter per line; the whole is in its title.
  const email = row.locator('td[data-label="Email"] span[title]');
  expect((await email.boundingBox())!.height).toBeLessThan(30);
  expect(await email.getAttribute("title")).toContain("@");
  await page.screenshot({ path: "tests/e2e/screenshots/orders-stacked-375.png", fullPage: true });

  await nav.getByRole("link", { name: "Integrations", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Integrations", level: 1 })).toBeVisible();
  const url = `https://127.0.0.1:9/receivers/a-rather-long-path/that-goes-on-and-on/${Date.now()}/webhooks`;
  await page.getByLabel("Endpoint URL").fill(url);
  await page.getByRole("button", { name: "Add webhook" }).click();
  const integration = page.getByTestId("integration").filter({ hasText: "127.0.0.1:9/receivers" }).first();
  const urlCell = integration.locator('td[data-label="URL"]');
  await expect(urlCell.locator("span[title]")).toHaveAttribute("title", url);
  for (const label of ["URL", "Status", "Created"]) {
    const box = (await integration.locator(`td[data-label="${label}"]`).boundingBox())!;
    expect(box.x + box.width, label).toBeLessThanOrEqual(375);
  }
  expect((await urlCell.locator("span[title]").boundingBox())!.height).toBeLessThan(30);
  await page.screenshot({ path: "tests/e2e/screenshots/integrations-stacked-375.png", fullPage: true });

  // Enabling and disabling say they happened.
  await integration.getByRole("button", { name: /^Disable/ }).click();
  await expect(page.getByTestId("notice")).toHaveText("Integration disabled.");
  await integration.getByRole("button", { name: /^Enable/ }).click();
  await expect(page.getByTestId("notice")).toHaveText("Integration enabled.");
});

test("the dark sidebar runs the full height of a long page at 1440 px", async ({ page }) => {
  await signedIn(page);
  await page.goto("/orders?size=100");
  const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(pageHeight).toBeGreaterThan(2000);
  const sidebar = (await page.getByTestId("sidebar").boundingBox())!;
  expect(sidebar.height).toBeGreaterThanOrEqual(pageHeight - 1);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Orders", exact: true })).toBeInViewport();
  await page.screenshot({ path: "tests/e2e/screenshots/orders-long-1440.png", fullPage: true });
});

test("an event form with the end before the start keeps every value and says what is wrong in words", async ({ page }) => {
  await signedIn(page);
  await page.goto("/events");
  await page.getByLabel("Name", { exact: true }).fill("Backwards gig");
  await page.getByLabel("Venue").selectOption({ label: "Hamnmagasinet" });
  await page.getByLabel("Starts (UTC)").fill("2027-03-01T19:00");
  await page.getByLabel("Ends (UTC)").fill("2027-03-01T18:00");
  await page.getByLabel("Description (optional)").fill("Kept after the error");
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page.getByText("Must be after the start", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Venue").locator("option:checked")).toHaveText("Hamnmagasinet");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Backwards gig");
  await expect(page.getByLabel("Starts (UTC)")).toHaveValue("2027-03-01T19:00");
  await expect(page.getByLabel("Ends (UTC)")).toHaveValue("2027-03-01T18:00");
  await expect(page.getByLabel("Description (optional)")).toHaveValue("Kept after the error");
  // Submitted again with the same mistake, the venue still stays.
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page.getByText("Must be after the start", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Venue").locator("option:checked")).toHaveText("Hamnmagasinet");
});

test("an event that has ended reads Ended, and cancelling it needs a second, explicit confirmation", async ({ page, request }) => {
  const venues = (await (await request.get("/v1/venues", { headers: api() })).json()) as { data: { id: string }[] };
  const name = `Ended gig ${Date.now()}`;
  const created = await request.post("/v1/events", {
    headers: api(),
    data: { name, venue_id: venues.data[0]!.id, starts_at: "2024-05-01T18:00:00Z", ends_at: "2024-05-01T22:00:00Z", status: "published" },
  });
  expect(created.status()).toBe(201);
  const event = (await created.json()) as { id: string; has_ended: boolean; status: string };
  expect(event).toMatchObject({ status: "published", has_ended: true });

  await signedIn(page);
  await page.goto(`/events/${event.id}`);
  await expect(page.getByTestId("event-status")).toHaveText("ended");
  await page.getByRole("button", { name: `Cancel event ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Cancel “${name}”?` });
  const confirm = dialog.getByRole("button", { name: "Cancel event" });
  await expect(confirm).toBeDisabled();
  await dialog.getByRole("checkbox", { name: /already ended/ }).check();
  await reviewPage(page, "event-ended-cancel-dialog");
  await confirm.click();
  await expect(page.getByTestId("notice")).toContainText("is cancelled");
  await expect(page.getByTestId("event-status")).toHaveText("cancelled");
});

test("deleting a venue announces its success", async ({ page, request }) => {
  const venue = await request.post("/v1/venues", {
    headers: api(),
    data: { name: `Notice hall ${Date.now()}`, address: { street: "Gatan 1", city: "Lund", postal_code: "222 22", country: "SE" }, capacity: 50 },
  });
  expect(venue.status()).toBe(201);
  const { name } = (await venue.json()) as { id: string; name: string };
  await signedIn(page);
  await page.goto("/venues?sort=created&order=desc");
  await page.getByRole("button", { name: `Delete ${name}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: /Delete/ }).click();
  await expect(page.getByTestId("notice")).toHaveText("Venue deleted.");
});
