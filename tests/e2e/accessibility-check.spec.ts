import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support";

const html = (body: string) => `<!doctype html><html lang="en"><head><title>axe check</title></head><body><main><h1>Check</h1>${body}</main></body></html>`;

// Every page's review relies on expectAccessible; it reports only violations, so a check that stopped seeing them
// would pass everything.
test("the accessibility check fails a page with serious violations, naming them, and passes the page once fixed", async ({ page }) => {
  await page.setContent(html(`<button></button><input type="text"><p style="color:#bbb;background:#fff">faint</p>`));
  const failure = await expectAccessible(page).then(
    () => "passed",
    (error: Error) => error.message,
  );
  expect(failure).toContain("button-name");
  expect(failure).toContain("label");
  expect(failure).toContain("color-contrast");

  await page.setContent(html(`<button>Save</button><label>Name <input type="text"></label><p style="color:#333;background:#fff">clear</p>`));
  await expectAccessible(page);
});
