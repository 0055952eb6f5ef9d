import { expect, test } from "@playwright/test";
import { reviewPage, signIn } from "./support";

test.beforeEach(async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/overview$/);
  await page.getByRole("link", { name: "Orders", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Orders", level: 1 })).toBeVisible();
});

test("searching by a customer's name and email finds their orders, and one opens with its cart", async ({ page }) => {
  await reviewPage(page, "orders");
  const rows = page.getByTestId("order-row");
  await expect(rows).toHaveCount(25);
  const name = (await rows.first().getByRole("cell").nth(2).textContent())!.trim();
  const email = (await rows.first().getByRole("cell").nth(3).textContent())!.trim();

  await page.getByRole("searchbox", { name: "Search" }).fill(name);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/\/orders\?q=/);
  await expect(rows.first()).toContainText(name);
  for (const row of await rows.all()) await expect(row).toContainText(name);

  await page.getByRole("searchbox", { name: "Search" }).fill(email.toUpperCase());
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/q=/);
  for (const row of await rows.all()) await expect(row).toContainText(email);

  const number = (await rows.first().getByRole("link").textContent())!.trim();
  await rows.first().getByRole("link").click();
  await expect(page.getByRole("heading", { name: `Order ${number}`, level: 1 })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByTestId("cart-item").first()).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "VAT" })).toBeVisible();
  await reviewPage(page, "order-detail");
});

test("sorting, page size and paging go through the URL; bad parameters fall back to defaults", async ({ page }) => {
  await page.getByRole("link", { name: /^Customer/ }).click();
  await expect(page).toHaveURL(/sort=customer_name/);
  await expect(page.getByRole("columnheader", { name: /Customer/ })).toHaveAttribute("aria-sort", "descending");
  await page.getByRole("link", { name: /^Customer/ }).click();
  await expect(page).toHaveURL(/order=asc/);
  await expect(page.getByRole("columnheader", { name: /Customer/ })).toHaveAttribute("aria-sort", "ascending");

  await page.getByLabel("Per page").selectOption("50");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByTestId("order-row")).toHaveCount(50);
  await page.getByRole("link", { name: "Next page" }).click();
  await expect(page).toHaveURL(/from=50/);
  await expect(page.getByTestId("orders-count")).toContainText("51–100 of");

  await page.goto("/orders?size=7&sort=nonsense&order=sideways&from=-3&date_from=yesterday&q=");
  await expect(page.getByTestId("order-row")).toHaveCount(25);
  await expect(page.getByTestId("orders-count")).toContainText("1–25 of");

  await page.goto("/orders?q=no-such-customer-anywhere");
  await expect(page.getByText("No orders match this search")).toBeVisible();
  await reviewPage(page, "orders-empty");
});

test("an order is refunded from its detail page after confirming, once", async ({ page }) => {
  const paid = page.getByTestId("order-row").filter({ hasText: "Paid" }).first();
  await paid.getByRole("link").click();
  await expect(page.getByTestId("order-status")).toHaveText("Paid");

  await page.getByRole("button", { name: "Refund order" }).click();
  const dialog = page.getByRole("dialog", { name: /Refund order #\d+\?/ });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("order-status")).toHaveText("Paid");

  await page.getByRole("button", { name: "Refund order" }).click();
  await dialog.getByLabel("Reason (optional)").fill("Customer could not attend");
  await reviewPage(page, "order-refund-dialog");
  await dialog.getByRole("button", { name: "Confirm refund" }).click();
  await expect(page.getByTestId("order-status")).toHaveText("Refunded");
  await expect(page.getByText("Reason: Customer could not attend")).toBeVisible();
  await expect(page.getByRole("button", { name: "Refund order" })).toHaveCount(0);
});

test("refunding an order that was refunded meanwhile says so", async ({ page, context }) => {
  const paid = page.getByTestId("order-row").filter({ hasText: "Paid" }).first();
  await paid.getByRole("link").click();
  // A client-side navigation: read the URL once it has landed on the order.
  await expect(page).toHaveURL(/\/orders\/[0-9a-f-]{36}$/);
  const url = page.url();
  const other = await context.newPage();
  await other.goto(url);
  await other.getByRole("button", { name: "Refund order" }).click();
  await other.getByRole("dialog").getByRole("button", { name: "Confirm refund" }).click();
  await expect(other.getByTestId("order-status")).toHaveText("Refunded");
  await other.close();

  await page.getByRole("button", { name: "Refund order" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Confirm refund" }).click();
  await expect(page.getByTestId("refund-error")).toContainText("Order is refunded");
});

test("a refund reason the server refuses is reported next to the field, and the dialog stays open", async ({ page }) => {
  const paid = page.getByTestId("order-row").filter({ hasText: "Paid" }).first();
  await paid.getByRole("link").click();
  await expect(page.getByTestId("order-status")).toHaveText("Paid");

  await page.getByRole("button", { name: "Refund order" }).click();
  const dialog = page.getByRole("dialog", { name: /Refund order #\d+\?/ });
  const reason = dialog.getByLabel("Reason (optional)");
  // The browser stops at 500 characters; a request made without the page's limit must still be checked.
  await reason.evaluate((field) => field.removeAttribute("maxlength"));
  const tooLong = "x".repeat(501);
  await reason.fill(tooLong);
  await dialog.getByRole("button", { name: "Confirm refund" }).click();

  await expect(dialog.getByText("At most 500 characters")).toBeVisible();
  await expect(dialog).toBeVisible();
  await expect(reason).toHaveAttribute("aria-invalid", "true");
  await expect(reason).toHaveAccessibleDescription("At most 500 characters");
  await expect(reason).toHaveValue(tooLong);
  await expect(page.getByTestId("refund-error")).toHaveCount(0);
  await reviewPage(page, "order-refund-reason-error");
  await expect(page.getByTestId("order-status")).toHaveText("Paid");

  await reason.fill("Duplicate order");
  await dialog.getByRole("button", { name: "Confirm refund" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("order-status")).toHaveText("Refunded");
  await expect(page.getByText("Reason: Duplicate order")).toBeVisible();
});
