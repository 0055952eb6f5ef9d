import { expect, test } from "@playwright/test";
import { reviewPage } from "./support";

test("the API reference is readable, axe-clean and keyboard-scrollable at 1440 and 375 px", async ({ page }) => {
  await page.goto("/docs/api");
  await expect(page.getByRole("heading", { name: "API reference", level: 1 })).toBeVisible();
  await reviewPage(page, "api-docs");

  await page.setViewportSize({ width: 375, height: 812 });
  // Code blocks and field tables: whatever scrolls sideways takes keyboard focus.
  const overflowing = await page
    .locator("pre, .overflow-x-auto")
    .evaluateAll((blocks) => blocks.filter((block) => block.scrollWidth > block.clientWidth).map((block) => (block as HTMLElement).tabIndex));
  expect(overflowing.length).toBeGreaterThan(0);
  expect(overflowing.every((tabIndex) => tabIndex === 0)).toBe(true);

  // A block wider than the screen scrolls with the arrow keys once focused.
  const wide = page.locator("pre").filter({ hasText: "customer_name" }).first();
  await wide.focus();
  await expect(wide).toBeFocused();
  expect(await wide.evaluate((pre) => pre.scrollLeft)).toBe(0);
  for (let i = 0; i < 10; i++) await page.keyboard.press("ArrowRight");
  await expect.poll(() => wide.evaluate((pre) => pre.scrollLeft)).toBeGreaterThan(0);
});
