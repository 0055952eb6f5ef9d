import { expect, test } from "@playwright/test";
import { reviewPage, signIn } from "./support";

test("an owner invites a developer, who joins through the link; a new role applies at once", async ({ page, browser }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/overview$/);
  await page.getByRole("link", { name: "Members" }).click();
  await expect(page.getByRole("heading", { name: "Members", level: 1 })).toBeVisible();
  await reviewPage(page, "members");

  const email = `e2e-${Date.now()}@example.test`;
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption("developer");
  await page.getByRole("button", { name: "Invite" }).click();
  const link = (await page.getByTestId("invitation-link").textContent())?.trim() ?? "";
  expect(link).toMatch(/\/invite\/[\w-]{40,}$/);
  await reviewPage(page, "members-invited");

  // The invitee, in a browser of their own.
  const invitee = await browser.newContext();
  const theirs = await invitee.newPage();
  await theirs.goto(link);
  await expect(theirs.getByRole("heading", { name: /^Join / })).toBeVisible();
  await expect(theirs.getByText(email)).toBeVisible();
  await reviewPage(theirs, "invite-accept");
  await theirs.getByLabel("Password").fill("short");
  await theirs.getByRole("button", { name: "Join and sign in" }).click();
  await expect(theirs.getByText("The password needs at least 8 characters")).toBeVisible();
  await theirs.getByLabel("Password").fill("a developer's password");
  await theirs.getByRole("button", { name: "Join and sign in" }).click();
  await expect(theirs).toHaveURL(/\/overview$/);
  const nav = theirs.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "API keys" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Members" })).toHaveCount(0);

  // The link works once.
  const again = await (await browser.newContext()).newPage();
  await again.goto(link);
  await expect(again.getByRole("heading", { name: "This invitation cannot be used" })).toBeVisible();

  // The owner makes them a viewer: their session ends, and signed in again they see no keys.
  await page.reload();
  const row = page.getByTestId("member").filter({ hasText: email });
  await expect(row.getByTestId("member-role")).toHaveText("developer");
  await row.getByLabel(`Role of ${email}`).selectOption("viewer");
  await row.getByRole("button", { name: `Change role of ${email}` }).click();
  await expect(row.getByTestId("member-role")).toHaveText("viewer");
  await expect(row.getByLabel(`Role of ${email}`)).toHaveValue("viewer");
  await reviewPage(page, "members-role-changed");

  await theirs.goto("/api-keys");
  await expect(theirs).toHaveURL(/\/login/);
  await signIn(theirs, { email, password: "a developer's password" });
  await expect(theirs).toHaveURL(/\/overview$/);
  await expect(theirs.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API keys" })).toHaveCount(0);
  await theirs.goto("/api-keys");
  await expect(theirs.getByRole("heading", { name: "Your role does not allow this page" })).toBeVisible();
  await reviewPage(theirs, "forbidden");
  await invitee.close();
});
