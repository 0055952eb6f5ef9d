import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { csvObjects } from "../support/csv";
import { demo, reviewPage, signIn } from "./support";

test.beforeEach(async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/overview$/);
});

test("orders filter by event, refund state, channel and payment method, page by number, and export exactly that as CSV", async ({ page }) => {
  await page.getByRole("link", { name: "Orders", exact: true }).click();
  const event = "Sommarnatt på Slottsbacken";
  await page.getByLabel("Event", { exact: true }).selectOption({ label: event });
  await page.getByLabel("Refunded").selectOption("false");
  await page.getByLabel("Channel").selectOption("web");
  await page.getByLabel("Per page").selectOption("50");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/event_id=evt_.*is_refunded=false.*order_source=web.*size=50/);
  await page.getByRole("link", { name: /^Total/ }).click();
  await expect(page).toHaveURL(/sort=price/);
  await expect(page).toHaveURL(/size=50/);

  const rows = page.getByTestId("order-row");
  await expect(rows.first()).toBeVisible();
  const shown = await rows.count();
  for (let i = 0; i < shown; i++) {
    await expect(rows.nth(i).getByRole("cell").nth(4)).toHaveText(event);
    await expect(rows.nth(i)).toContainText("Paid");
  }
  const total = Number((await page.getByTestId("orders-count").textContent())!.replace(/.* of /, "").replaceAll(",", ""));
  const pageUuids = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelector("a")!.getAttribute("href")!.split("/").pop()!));
  await reviewPage(page, "orders-filtered");

  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^transactions-\d{8}-\d{6}\.csv$/);
  const exported = csvObjects(await readFile((await download.path())!, "utf8"));
  expect(exported).toHaveLength(total);
  expect(exported.slice(0, pageUuids.length).map((row) => row.order_uuid)).toEqual(pageUuids);
  expect(exported.every((row) => row.event_name === event && row.is_refunded === "false" && row.order_source === "web")).toBe(true);
  const prices = exported.map((row) => Number(row.total_price));
  expect(prices).toEqual([...prices].sort((a, b) => b - a));

  // Numbered pages with first and last, the page size kept.
  await page.goto("/orders?size=25");
  const pages = page.getByRole("navigation", { name: "Pages" });
  await pages.getByRole("link", { name: "Page 2" }).click();
  await expect(page).toHaveURL(/from=25/);
  await expect(page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Page 2" })).toHaveAttribute("aria-current", "page");
  await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Last page" }).click();
  await expect(page.getByRole("navigation", { name: "Pages" }).getByText("Next page")).toHaveAttribute("aria-disabled", "true");
  await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "First page" }).click();
  await expect(page.getByTestId("orders-count")).toContainText("1–25 of");
  await reviewPage(page, "orders-pages");
});

test("an event's page shows sold and capacity per ticket type, revenue, refunds and cumulative sales, as the API sums them", async ({ page, request }) => {
  await page.getByRole("link", { name: "Events", exact: true }).click();
  const name = "Nyårsgalan";
  const link = page.getByTestId("event-row").filter({ hasText: name }).getByRole("link", { name });
  const eventId = (await link.getAttribute("href"))!.split("/").pop()!;
  await link.click();
  const sales = page.getByRole("region", { name: "Sales" });
  await expect(sales).toBeVisible();
  await expect(sales.getByTestId("ticket-type-sales")).toHaveCount(2);
  await expect(sales.getByRole("meter").first()).toHaveAttribute("aria-valuemax", /\d+/);
  await expect(page.getByTestId("chart-cumulative").getByRole("group", { name: /cumulative/ })).toBeVisible();

  const response = await request.get(`/analytics_search/api/summary?group_by=ticket_type&event_id=${eventId}`, {
    headers: { Authorization: `Bearer ${demo().apiKey}` },
  });
  const { data } = (await response.json()) as { data: { totals: { tickets: number; orders: number; revenue: number }; currency: string } };
  await expect(page.getByTestId("event-tickets")).toHaveText(data.totals.tickets.toLocaleString("en-GB"));
  await expect(page.getByTestId("event-orders")).toHaveText(data.totals.orders.toLocaleString("en-GB"));
  const money = new Intl.NumberFormat("en-GB", { style: "currency", currency: data.currency }).format(data.totals.revenue / 100);
  await expect(page.getByTestId("event-revenue")).toHaveText(money);
  await reviewPage(page, "event-sales");
});
