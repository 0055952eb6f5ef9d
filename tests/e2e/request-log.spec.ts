import { expect, test } from "@playwright/test";
import { demo, reviewPage, signIn } from "./support";

test("a request's trace id pasted into the Logs search lands on that request, which links to what it created", async ({ page, request }) => {
  const auth = { Authorization: `Bearer ${demo().apiKey}` };
  const venueName = `Logged hall ${Date.now()}`;
  const created = await request.post("/v1/venues", {
    headers: { ...auth, "User-Agent": "e2e-request-log" },
    data: { name: venueName, address: { street: "Sveavägen 1", city: "Stockholm", postal_code: "111 57", country: "SE" }, capacity: 300 },
  });
  expect(created.status()).toBe(201);
  const traceId = created.headers()["x-trace-id"]!;
  const venueId = ((await created.json()) as { id: string }).id;
  // The log is written in batches, within about a second.
  await expect.poll(async () => (await request.get(`/v1/request-log/${traceId}`, { headers: auth })).status()).toBe(200);

  await signIn(page);
  await expect(page).toHaveURL(/\/overview$/);
  await page.getByRole("link", { name: "Logs" }).click();
  await expect(page.getByRole("heading", { name: "Logs", level: 1 })).toBeVisible();
  // The polls above are logged too (their paths name the trace id); the POST is the one request that made it.
  await expect(page.getByTestId("request-row").filter({ hasText: traceId }).filter({ hasText: "POST" })).toBeVisible();
  await reviewPage(page, "logs");

  // Something that is not a trace id says so instead of searching.
  await page.getByLabel("Trace id").fill("not-a-trace");
  await page.getByRole("button", { name: "Find request" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "That is not a trace id" })).toBeVisible();

  // Pasted as it is often copied: with spaces around it.
  await page.getByLabel("Trace id").fill(`  ${traceId}  `);
  await page.getByRole("button", { name: "Find request" }).click();
  await expect(page).toHaveURL(new RegExp(`/logs/${traceId}$`));
  await expect(page.getByTestId("request-trace-id")).toHaveText(traceId);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("POST /v1/venues");
  await expect(page.getByText("e2e-request-log")).toBeVisible();
  await expect(page.getByTestId("request-body")).toContainText(venueName);
  await reviewPage(page, "logs-request");

  await page.getByRole("link", { name: `Venue ${venueId}` }).click();
  await expect(page).toHaveURL(new RegExp(`/venues/${venueId}$`));
  await expect(page.getByRole("heading", { name: venueName })).toBeVisible();
});

test("the Logs filters narrow the list through the URL", async ({ page, request }) => {
  const auth = { Authorization: `Bearer ${demo().apiKey}` };
  const missing = await request.get("/v1/events/evt_00000000000000000000000000000000", { headers: auth });
  expect(missing.status()).toBe(404);
  const traceId = missing.headers()["x-trace-id"]!;
  await expect.poll(async () => (await request.get(`/v1/request-log/${traceId}`, { headers: auth })).status()).toBe(200);

  await signIn(page);
  await expect(page).toHaveURL(/\/overview$/);
  await page.goto("/logs");
  await page.getByLabel("Status").selectOption("4xx");
  await page.getByLabel("Path starts with").fill("/v1/events");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/status=4xx/);
  const rows = page.getByTestId("request-row");
  await expect(rows.filter({ hasText: traceId })).toBeVisible();
  for (const text of await rows.allTextContents()) expect(text).toContain("404");
});
