import { expect, test } from "@playwright/test";
import { demo, reviewPage, signIn } from "./support";

test.beforeEach(async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/overview$/);
  await page.getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible();
});

test("a new key with orders:read calls the API until it is revoked", async ({ page, request }) => {
  await reviewPage(page, "api-keys");
  const name = `e2e key ${Date.now()}`;
  await page.getByLabel("Name").fill(name);
  await page.getByRole("checkbox", { name: "orders:read" }).check();
  await page.getByRole("button", { name: "Create key" }).click();

  const key = (await page.getByTestId("new-key-value").textContent())?.trim() ?? "";
  expect(key).toMatch(/^sk_/);
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

test("the API token control issues a dashboard token the inspection endpoints accept", async ({ page, request }) => {
  await page.getByRole("button", { name: "Copy API token" }).click();
  const token = await page.getByTestId("api-token").inputValue();
  expect(token.split(".")).toHaveLength(3);
  const withToken = await request.get("/webhooks/deliveries", { headers: { Authorization: `Bearer ${token}` } });
  expect(withToken.status()).toBe(200);
  const withKey = await request.get("/webhooks/deliveries", { headers: { Authorization: `Bearer ${demo().apiKey}` } });
  expect(withKey.status()).toBe(401);
});
