import { expect, test, type Page } from "@playwright/test";
import { demo, reviewPage, signIn } from "./support";

test.beforeEach(async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/overview$/);
});

test("the Overview shows charts with axes and values, headline changes and breakdowns, for a chosen period", async ({ page }) => {
  const revenue = page.getByTestId("chart-revenue");
  await expect(revenue.getByRole("group", { name: "Revenue per day" })).toBeVisible();
  await expect(page.getByTestId("chart-orders").getByRole("group", { name: "Orders per day" })).toBeVisible();
  await expect(page.getByTestId("chart-refunds")).toBeVisible();
  await expect(page.getByTestId("stat-revenue-change")).toHaveText(/vs previous 30 days$/);
  await expect(page.getByTestId("breakdown-event")).not.toHaveCount(0);
  await expect(page.getByTestId("breakdown-channel")).not.toHaveCount(0);
  await expect(page.getByTestId("breakdown-payment-method")).not.toHaveCount(0);
  await expect(page.getByTestId("breakdown-ticket-type")).not.toHaveCount(0);

  // Keyboard: focus the chart, then the arrow keys read the values out (a live region).
  await revenue.getByRole("group").focus();
  await expect(page.getByTestId("chart-revenue-value")).toHaveText(/^\d+ \w{3}: /);
  await page.keyboard.press("Home");
  const first = await page.getByTestId("chart-revenue-value").textContent();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("chart-revenue-value")).not.toHaveText(first!);
  // Hover shows a value too.
  await page.getByTestId("chart-orders").getByRole("group").hover();
  await expect(page.getByTestId("chart-orders-value")).toHaveText(/: \d/);
  await reviewPage(page, "overview");

  await page.locator("summary", { hasText: /^Figures per day/ }).click();
  const figures = page.getByRole("region", { name: "Figures per day, scrollable" });
  await expect(figures.getByTestId("period-figures").first()).toBeVisible();
  await reviewPage(page, "overview-figures");

  await page.getByRole("link", { name: "1 year" }).click();
  await expect(page).toHaveURL(/days=365/);
  await expect(page.getByRole("link", { name: "1 year" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("group", { name: "Revenue per week" })).toBeVisible();
  await reviewPage(page, "overview-365");
  await page.getByRole("link", { name: "2 years" }).click();
  await expect(page.getByRole("group", { name: "Revenue per month" })).toBeVisible();
});

/** Per chart, the x-axis labels shown and the pairs of them whose boxes overlap. */
function xAxisLabels(page: Page) {
  return page.locator('[data-testid$="-x-axis"]').evaluateAll((axes) =>
    axes.map((axis) => {
      const shown = [...axis.querySelectorAll("span")].filter((label) => label.checkVisibility({ visibilityProperty: true }));
      const boxes = shown.map((label) => ({ text: label.textContent, box: label.getBoundingClientRect() }));
      const overlapping = boxes.flatMap((a, i) =>
        boxes.slice(i + 1).flatMap((b) => (a.box.right > b.box.left && b.box.right > a.box.left ? [`${a.text} / ${b.text}`] : [])),
      );
      return { shown: shown.length, overlapping };
    }),
  );
}

test("the charts' x-axis labels never overlap, on a desktop and on a phone, for a month and a year", async ({ page }) => {
  for (const days of [30, 365]) {
    await page.goto(`/overview?days=${days}`);
    await page.waitForLoadState("networkidle");
    for (const width of [1440, 375]) {
      await page.setViewportSize({ width, height: 900 });
      // Polled: the labels are laid out again for the new width.
      await expect
        .poll(() => xAxisLabels(page), { message: `days=${days} at ${width} px` })
        .toEqual(Array.from({ length: 4 }, () => ({ shown: expect.any(Number), overlapping: [] })));
      // The first and last point are always named.
      for (const axis of await xAxisLabels(page)) expect(axis.shown).toBeGreaterThanOrEqual(2);
    }
  }
});

test("the Overview's figures are the API summary's for the same period", async ({ page, request }) => {
  const today = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
  const response = await request.get(`/analytics_search/api/summary?group_by=day&date_from=${from}&date_to=${today}`, {
    headers: { Authorization: `Bearer ${demo().apiKey}` },
  });
  expect(response.status()).toBe(200);
  const { data } = (await response.json()) as { data: { totals: { orders: number; tickets: number; revenue: number }; currency: string } };
  const money = new Intl.NumberFormat("en-GB", { style: "currency", currency: data.currency }).format(data.totals.revenue / 100);
  await expect(page.getByTestId("stat-revenue")).toHaveText(money);
  await expect(page.getByTestId("stat-orders")).toHaveText(data.totals.orders.toLocaleString("en-GB"));
  await expect(page.getByTestId("stat-tickets")).toHaveText(data.totals.tickets.toLocaleString("en-GB"));
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
