import { expect, test, type Browser, type Page } from "@playwright/test";
import { reviewPage, signIn } from "./support";

/** The demo owner invites `email` with `role`; the invitee joins in a browser of their own, signed in there. */
async function joinedMember(owner: Page, browser: Browser, email: string, role: string, password: string) {
  await owner.goto("/members");
  await owner.getByLabel("E-mail").fill(email);
  await owner.getByLabel("Role", { exact: true }).selectOption(role);
  await owner.getByRole("button", { name: "Invite" }).click();
  const link = (await owner.getByTestId("invitation-link").textContent())?.trim() ?? "";
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Join and sign in" }).click();
  await expect(page).toHaveURL(/\/overview$/);
  return { context, page };
}

test("a viewer reads events, venues and orders without a form or button for what the role cannot do", async ({ page, browser }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/overview$/);
  const { context, page: viewer } = await joinedMember(page, browser, `viewer-${Date.now()}@example.test`, "viewer", "a viewer's password");

  await viewer.goto("/events");
  await expect(viewer.getByTestId("event-row").first()).toBeVisible();
  await expect(viewer.getByRole("heading", { name: "Create an event" })).toHaveCount(0);
  // The filter is the one button on the page: no publish, cancel or delete in the rows.
  await expect(viewer.getByRole("main").getByRole("button")).toHaveText(["Filter"]);
  await viewer.getByTestId("event-row").first().getByRole("link").click();
  await expect(viewer.getByRole("heading", { name: "Details" })).toBeVisible();
  await expect(viewer.getByRole("heading", { name: "Edit event" })).toHaveCount(0);
  await expect(viewer.getByRole("heading", { name: "Add a ticket type" })).toHaveCount(0);
  await expect(viewer.getByRole("main").locator("form")).toHaveCount(0);
  await expect(viewer.getByRole("main").getByRole("button", { name: /Publish|Cancel|Delete|Edit/ })).toHaveCount(0);
  await expect(viewer.getByTestId("ticket-type-row").first()).toBeVisible();
  await reviewPage(viewer, "viewer-event");

  await viewer.goto("/venues");
  await expect(viewer.getByTestId("venue-row").first()).toBeVisible();
  await expect(viewer.getByRole("heading", { name: "Create a venue" })).toHaveCount(0);
  await expect(viewer.getByRole("main").locator("form")).toHaveCount(0);
  await expect(viewer.getByRole("main").getByRole("button")).toHaveCount(0);

  await viewer.goto("/orders");
  await viewer.getByTestId("order-row").filter({ hasText: "Paid" }).first().getByRole("link").click();
  await expect(viewer.getByTestId("order-status")).toHaveText("Paid");
  await expect(viewer.getByRole("button", { name: "Refund order" })).toHaveCount(0);
  await expect(viewer.getByRole("heading", { name: /Webhook deliveries/ })).toHaveCount(0);
  await reviewPage(viewer, "viewer-order");
  await context.close();
});

test("changing one's password ends the other sessions; a member leaves, the last owner cannot", async ({ page, browser }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/overview$/);
  const email = `leaver-${Date.now()}@example.test`;
  const { context, page: first } = await joinedMember(page, browser, email, "developer", "the first password");
  const otherContext = await browser.newContext();
  const second = await otherContext.newPage();
  await signIn(second, { email, password: "the first password" });
  await expect(second).toHaveURL(/\/overview$/);

  await first.goto("/account");
  await first.getByLabel("Current password").fill("the first password");
  await first.getByLabel("New password").fill("the second password");
  await first.getByRole("button", { name: "Change password" }).click();
  await expect(first.getByText("Password changed. Your other sessions have ended.")).toBeVisible();
  await reviewPage(first, "account-password-changed");
  // This browser signed in again with the new password; the other one is signed out.
  await first.goto("/api-keys");
  await expect(first.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible();
  await second.goto("/api-keys");
  await expect(second).toHaveURL(/\/login/);
  await signIn(second, { email, password: "the first password" });
  await expect(second.getByText("Invalid email or password")).toBeVisible();
  await otherContext.close();

  // The demo organization's only owner is refused, and stays signed in.
  await page.goto("/account");
  await page.getByRole("button", { name: "Leave the organization" }).click();
  await page.getByRole("dialog", { name: "Leave the organization?" }).getByRole("button", { name: "Leave" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("An organization keeps at least one owner");
  await reviewPage(page, "account-last-owner");
  await page.goto("/members");
  await expect(page.getByTestId("member").filter({ hasText: email })).toHaveCount(1);

  await first.goto("/account");
  await first.getByRole("button", { name: "Leave the organization" }).click();
  await first.getByRole("dialog", { name: "Leave the organization?" }).getByRole("button", { name: "Leave" }).click();
  await expect(first).toHaveURL(/\/login/);
  await page.reload();
  await expect(page.getByTestId("member").filter({ hasText: email })).toHaveCount(0);
  await signIn(first, { email, password: "the second password" });
  await expect(first.getByText("Invalid email or password")).toBeVisible();
  await context.close();
});
