import { readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** What tests/support/e2e-server.ts seeded: the demo organization's login and API key. */
export interface DemoCredentials {
  organizationId: string;
  login: { email: string; password: string };
  apiKey: string;
}

export function demo(): DemoCredentials {
  const stateDir = process.env.E2E_STATE_DIR;
  if (!stateDir) throw new Error("E2E_STATE_DIR is set by playwright.config.ts");
  return JSON.parse(readFileSync(path.join(stateDir, "demo.json"), "utf8")) as DemoCredentials;
}

export async function signIn(page: Page, login = demo().login) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(login.email);
  await page.getByLabel("Password").fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** No serious or critical axe violations (WCAG 2.x A and AA rules) on the page as it is now. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const blocking = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(" ")) }));
  expect(blocking).toEqual([]);
}

const SCREENSHOTS = path.join(import.meta.dirname, "screenshots");

/** Full-page screenshots at desktop and phone widths, for review; the axe check runs at both. */
export async function reviewPage(page: Page, name: string) {
  for (const width of [1440, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await expectAccessible(page);
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}
