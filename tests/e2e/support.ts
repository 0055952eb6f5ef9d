import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import type { FailingWebhookState } from "../support/e2e-failing-webhook";

/** What tests/support/e2e-server.ts seeded: the demo organization's login and API key. */
export interface DemoCredentials {
  organizationId: string;
  login: { email: string; password: string };
  apiKey: string;
}

function seeded<T>(file: string): T {
  const stateDir = process.env.E2E_STATE_DIR;
  if (!stateDir) throw new Error("E2E_STATE_DIR is set by playwright.config.ts");
  return JSON.parse(readFileSync(path.join(stateDir, file), "utf8")) as T;
}

export function demo(): DemoCredentials {
  return seeded<DemoCredentials>("demo.json");
}

/** The organization whose webhook the server disabled automatically before the run (see e2e-failing-webhook.ts). */
export function failingWebhook(): FailingWebhookState {
  return seeded<FailingWebhookState>("failing-webhook.json");
}

export async function signIn(page: Page, login = demo().login) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(login.email);
  await page.getByLabel("Password").fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/**
 * No serious or critical axe violations (WCAG 2.x A and AA rules) on the page as it is now. The pages have no frames,
 * so axe runs in the page itself (legacy mode) and describes only its violations: the default, one partial run per
 * frame merged in a blank page, serialises every passing node with its selector first, which took half of the e2e
 * suite's axe time (160 → 87 s over its 122 checks; 12.6 → 8.8 s for the API reference).
 */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ["violations"] })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  const blocking = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(" ")) }));
  expect(blocking).toEqual([]);
}

const SCREENSHOTS = path.join(import.meta.dirname, "screenshots");

/**
 * Chromium's largest texture side. The API reference is 60,000 px tall at 1440 px and 94,000 at 375: its full-page capture
 * (a 346-megapixel raster) once stalled past the test's three minutes in CI, where it otherwise takes 4–10 s.
 */
const SCREENSHOT_MAX_HEIGHT = 16_384;

/** Full-page screenshots (up to SCREENSHOT_MAX_HEIGHT) at desktop and phone widths, for review; the axe check runs at both. */
export async function reviewPage(page: Page, name: string) {
  for (const width of [1440, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await expectAccessible(page);
    const size = await page.evaluate(() => ({ width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight }));
    const clip = { x: 0, y: 0, width: size.width, height: Math.min(size.height, SCREENSHOT_MAX_HEIGHT) };
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true, clip });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** When the request arrived (ms since the epoch). */
  at: number;
}

/**
 * A webhook receiver on 127.0.0.1 that records every request and answers `status(n)` to the n-th (1-based), 200 by
 * default, after `delayMs(n)` milliseconds (none by default).
 */
export async function startReceiver(status: (hit: number) => number = () => 200, delayMs: (hit: number) => number = () => 0) {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const hit = received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      setTimeout(() => {
        response.writeHead(status(hit), { "Content-Type": "text/plain" });
        response.end("received");
      }, delayMs(hit));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    // A path of its own, so this run's integration is told apart from those of earlier tests.
    url: `http://127.0.0.1:${port}/hooks/${Date.now()}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Order {
  id: string;
  order_number: number;
}

/** A completed order of the demo organization: one ticket of the first published event with tickets on sale. */
export async function createOrder(request: APIRequestContext): Promise<Order> {
  const headers = { Authorization: `Bearer ${demo().apiKey}` };
  const events = (await (await request.get("/v1/events?status=published&per_page=100", { headers })).json()) as {
    data: { id: string }[];
  };
  for (const event of events.data) {
    const tickets = (await (await request.get(`/v1/events/${event.id}/tickets`, { headers })).json()) as {
      data: { id: string; status: string; quantity_total: number; quantity_sold: number }[];
    };
    const ticket = tickets.data.find((t) => t.status === "on_sale" && t.quantity_sold < t.quantity_total);
    if (!ticket) continue;
    const response = await request.post("/v1/orders", {
      headers,
      data: {
        event_id: event.id,
        customer: { email: "webhook.e2e@example.com", name: "Webhook E2E" },
        items: [{ ticket_id: ticket.id, quantity: 1 }],
      },
    });
    expect(response.status()).toBe(201);
    return (await response.json()) as Order;
  }
  throw new Error("No published event has a ticket on sale");
}

/** Reloads until the locator shows the text: the server renders the deliveries' current state. */
export async function reloadUntil(page: Page, locator: Locator, text: string) {
  await expect(async () => {
    await page.reload();
    await expect(locator).toContainText(text, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
}
