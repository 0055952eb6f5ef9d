import { expect, test } from "@playwright/test";
import { demo, reviewPage, signIn } from "./support";

test.beforeEach(async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/overview$/);
  await page.getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible();
});

test("a new key with orders:read calls the API until it is revoked", async ({ page, context, request }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await reviewPage(page, "api-keys");
  const name = `e2e key ${Date.now()}`;
  await page.getByLabel("Name").fill(name);
  await page.getByRole("checkbox", { name: "orders:read" }).check();
  await page.getByRole("button", { name: "Create key" }).click();

  const key = (await page.getByTestId("new-key-value").textContent())?.trim() ?? "";
  expect(key).toMatch(/^sk_/);
  await page.getByTestId("new-key").getByRole("button", { name: "Copy key" }).click();
  await expect(page.getByTestId("new-key").getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  const row = page.getByTestId("api-key-row").filter({ hasText: name });
  await expect(row).toContainText("orders:read");
  await expect(row).toContainText(key.slice(0, 10));
  await expect(row).toContainText("Active");
  await reviewPage(page, "api-keys-created");

  const url = "/analytics_search/api/transactions";
  const allowed = await request.get(url, { headers: { Authorization: `Bearer ${key}` } });
  expect(allowed.status()).toBe(200);

  await page.reload();
  await expect(page.getByTestId("new-key-value")).toHaveCount(0);
  await expect(row.getByRole("time").nth(1)).toBeVisible();

  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Revoke “${name}”?` });
  await expect(dialog).toBeVisible();
  await reviewPage(page, "api-keys-revoke-dialog");
  await dialog.getByRole("button", { name: "Revoke key" }).click();
  await expect(row).toContainText("Revoked");

  const refused = await request.get(url, { headers: { Authorization: `Bearer ${key}` } });
  expect(refused.status()).toBe(401);
});

test("the create form reports errors next to the fields", async ({ page }) => {
  await page.getByLabel(/Rate limit/).fill("0");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByText("Give the key a name")).toBeVisible();
  await expect(page.getByText("Choose at least one scope")).toBeVisible();
  await expect(page.getByText("At least 1 request per minute")).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("new-key-value")).toHaveCount(0);
});

test("revoking can be cancelled", async ({ page }) => {
  const row = page.getByTestId("api-key-row").filter({ hasText: "Active" }).first();
  await row.getByRole("button", { name: /^Revoke/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(row).toContainText("Active");
});

test("the inspection endpoints accept the dashboard session itself, and nothing without credentials", async ({ page, playwright, baseURL }) => {
  // page.request carries the browser context's cookies, i.e. the signed-in session, and no Authorization header.
  const withSession = await page.request.get("/webhooks/deliveries");
  expect(withSession.status()).toBe(200);
  expect(((await withSession.json()) as { data: unknown[] }).data).toEqual(expect.any(Array));

  const anonymous = await playwright.request.newContext({ baseURL });
  try {
    expect((await anonymous.storageState()).cookies).toEqual([]);
    const without = await anonymous.get("/webhooks/deliveries");
    expect(without.status()).toBe(401);
  } finally {
    await anonymous.dispose();
  }

  // Signing out ends the session's access too.
  await page.getByRole("button", { name: "Sign out" }).filter({ visible: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect((await page.request.get("/webhooks/deliveries")).status()).toBe(401);
});

test("the API token control issues a dashboard token the inspection endpoints accept", async ({ page, request }) => {
  await page.getByRole("button", { name: "Copy API token" }).click();
  const token = await page.getByTestId("api-token").inputValue();
  expect(token.split(".")).toHaveLength(3);
  const withToken = await request.get("/webhooks/deliveries", { headers: { Authorization: `Bearer ${token}` } });
  expect(withToken.status()).toBe(200);
  const withKey = await request.get("/webhooks/deliveries", { headers: { Authorization: `Bearer ${demo().apiKey}` } });
  expect(withKey.status()).toBe(401);
});

test("keys are paged and sorted on the server through the URL", async ({ page }) => {
  // Names that sort before every other key, so the first pages by name are known.
  const stamp = Date.now().toString(36);
  const names = [1, 2, 3].map((n) => `aaa ${stamp} ${n}`);
  for (const name of names) {
    await page.getByLabel("Name").fill(name);
    await page.getByRole("checkbox", { name: "events:read" }).check();
    await page.getByRole("button", { name: "Create key" }).click();
    await expect(page.getByText(`Key “${name}” created.`)).toBeVisible();
  }
  const total = Number((await page.getByTestId("api-keys-count").textContent())?.match(/^\d+/)?.[0]);
  expect(total).toBeGreaterThanOrEqual(4);
  const rows = page.getByTestId("api-key-row");
  const nameCells = rows.locator("td:first-child");

  await page.goto("/api-keys?per_page=2&sort=name");
  await expect(nameCells).toHaveText(names.slice(0, 2));
  const pages = Math.ceil(total / 2);
  const nav = page.getByRole("navigation", { name: "Pages" });
  await expect(nav).toContainText(`Page 1 of ${pages}`);
  await expect(page.getByRole("columnheader", { name: /^Name/ })).toHaveAttribute("aria-sort", "ascending");
  await reviewPage(page, "api-keys-paged");

  await nav.getByRole("link", { name: "Next page" }).click();
  await expect(page).toHaveURL(/\/api-keys\?sort=name&page=2&per_page=2$/);
  await expect(nameCells.first()).toHaveText(names[2]!);
  await expect(nav).toContainText(`Page 2 of ${pages}`);
  await nav.getByRole("link", { name: "Previous page" }).click();
  await expect(page).toHaveURL(/\/api-keys\?sort=name&per_page=2$/);
  await expect(nameCells).toHaveText(names.slice(0, 2));

  // The sorted column's header flips the order and starts again on the first page; the page size stays.
  await page.getByRole("link", { name: /^Name\W+sorted ascending$/ }).click();
  await expect(page).toHaveURL(/\/api-keys\?sort=name&order=desc&per_page=2$/);
  await expect(page.getByRole("columnheader", { name: /^Name/ })).toHaveAttribute("aria-sort", "descending");
  await page.goto(`/api-keys?per_page=2&sort=name&order=desc&page=${pages}`);
  const lastPage = total % 2 === 0 ? names.slice(0, 2).reverse() : [names[0]!];
  await expect(nameCells).toHaveText(lastPage);

  // Newest first by default: the last key created leads page 1.
  await page.getByRole("link", { name: /^Created\W+sort$/ }).click();
  await expect(page).toHaveURL(/\/api-keys\?per_page=2$/);
  await expect(page.getByRole("columnheader", { name: /^Created/ })).toHaveAttribute("aria-sort", "descending");
  await expect(nameCells.first()).toHaveText(names[2]!);
});

test("hand-edited paging parameters fall back to the defaults", async ({ page }) => {
  const total = Number((await page.getByTestId("api-keys-count").textContent())?.match(/^\d+/)?.[0]);
  const response = await page.goto("/api-keys?page=-3&per_page=abc&sort=key_hash&order=sideways");
  expect(response?.status()).toBe(200);
  await expect(page.getByTestId("api-key-row")).toHaveCount(Math.min(total, 25));
  await expect(page.getByRole("columnheader", { name: /^Created/ })).toHaveAttribute("aria-sort", "descending");

  await page.goto("/api-keys?page=999&per_page=1");
  await expect(page.getByText("This page is past the last key.")).toBeVisible();
  await page.getByRole("link", { name: "Previous page" }).click();
  await expect(page).toHaveURL(total === 1 ? /\/api-keys\?per_page=1$/ : new RegExp(`/api-keys\\?page=${total}&per_page=1$`));
  await expect(page.getByTestId("api-key-row")).toHaveCount(1);
});
