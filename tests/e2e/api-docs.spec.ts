import { expect, test } from "@playwright/test";
import { reviewPage, signIn } from "./support";

test("the API reference is readable, axe-clean and keyboard-scrollable at 1440 and 375 px", async ({ page }) => {
  // axe walks the whole reference (every operation and both webhook events) at two widths: tens of seconds on a busy machine.
  test.setTimeout(180_000);
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

test("the dashboard navigation leads to the API reference, whose webhooks section shows each event's headers, payload and signature rule", async ({
  page,
}) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/overview$/);
  await page.getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  await page.getByRole("navigation", { name: "Resources" }).getByRole("link", { name: "Webhook events" }).click();
  await expect(page).toHaveURL(/#webhook-events$/);
  const section = page.getByRole("region", { name: "Webhook events" });
  await expect(section.getByRole("heading", { name: "Webhook events", level: 2 })).toBeInViewport();
  await expect(section.getByTestId("signature-rule")).toContainText("HMAC-SHA256");
  await expect(section.getByTestId("signature-rule")).toContainText("whsec_");
  await expect(section.getByRole("table", { name: /^Payload of every event/ }).getByRole("cell", { name: "is_refunded", exact: true })).toBeVisible();
  for (const event of ["OrderCompleted", "OrderRefunded"]) {
    const card = section.locator("article").filter({ has: page.getByTestId("webhook-event").getByText(event, { exact: true }) });
    const headers = card.getByRole("table", { name: "Headers" });
    for (const header of ["X-Webhook-Delivery-ID", "X-Webhook-Event-Type", "X-Webhook-Attempt", "X-Webhook-Timestamp", "X-Webhook-Signature", "X-Webhook-Redelivery-Of"]) {
      await expect(headers.getByRole("cell", { name: header, exact: true })).toBeVisible();
    }
    await expect(card.locator("pre").filter({ hasText: `"X-Webhook-Event-Type": "${event}"` })).toBeVisible();
  }
  // The section is part of the page the test above checks with axe at both widths; here it must stay readable at 375 px.
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(section.getByTestId("signature-rule")).toBeVisible();
  const overflow = await section.evaluate((element) => element.scrollWidth - element.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
