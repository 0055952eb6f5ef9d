import { expect, test } from "@playwright/test";
import { reviewPage, signIn } from "./support";

test.beforeEach(async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/overview$/);
});

test("the Overview shows charts, top events and refund rate for a chosen period", async ({ page }) => {
  await expect(page.getByRole("img", { name: /Revenue per day over 30 days/ })).toBeVisible();
  await expect(page.getByRole("img", { name: /Completed orders per day over 30 days/ })).toBeVisible();
  await expect(page.getByTestId("stat-refund-rate")).toHaveText(/%$/);
  const topEvents = page.getByRole("region", { name: "Top events by revenue" });
  await expect(topEvents.getByRole("row")).not.toHaveCount(0);
  await expect(topEvents.getByRole("columnheader", { name: "Revenue" })).toHaveClass(/text-right/);
  await reviewPage(page, "overview");

  // The daily figures are folded away; opened, they scroll under their header and are checked too.
  await page.getByText(/^Daily figures/).click();
  const daily = page.getByRole("region", { name: "Daily figures, scrollable" });
  await expect(daily.getByTestId("daily-figures").first()).toBeVisible();
  await expect(daily.getByRole("columnheader", { name: "Orders" })).toBeVisible();
  await reviewPage(page, "overview-daily");

  await page.getByRole("link", { name: "1 year" }).click();
  await expect(page).toHaveURL(/days=365/);
  await expect(page.getByRole("link", { name: "1 year" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("img", { name: /over 365 days/ }).first()).toBeVisible();
  await reviewPage(page, "overview-365");
});

test("the dashboard works from the keyboard", async ({ page }) => {
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "API keys" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/api-keys$/);
});
