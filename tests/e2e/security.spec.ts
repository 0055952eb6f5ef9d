import { expect, test, type Browser, type Page } from "@playwright/test";
import { reviewPage, signIn } from "./support";

/** The owner invites `role` on the Members page; the invitee joins in a browser of their own and lands on the overview. */
async function join(owner: Page, browser: Browser, role: "admin" | "developer" | "viewer"): Promise<Page> {
  await owner.goto("/members");
  const email = `e2e-security-${role}-${Date.now()}@example.test`;
  await owner.getByLabel("E-mail").fill(email);
  await owner.getByLabel("Role", { exact: true }).selectOption(role);
  await owner.getByRole("button", { name: "Invite" }).click();
  const link = (await owner.getByTestId("invitation-link").textContent())?.trim() ?? "";
  expect(link).toMatch(/\/invite\//);
  const member = await (await browser.newContext()).newPage();
  await member.goto(link);
  await member.getByLabel("Password").fill(`a ${role}'s password`);
  await member.getByRole("button", { name: "Join and sign in" }).click();
  await expect(member).toHaveURL(/\/overview$/);
  return member;
}

test("an admin revokes a key and finds the entry on the Security page, filtered by action", async ({ page, browser }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/overview$/);
  const admin = await join(page, browser, "admin");

  const name = `e2e audited key ${Date.now()}`;
  await admin.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API keys" }).click();
  await admin.getByLabel("Name").fill(name);
  await admin.getByRole("checkbox", { name: "orders:read" }).check();
  await admin.getByRole("button", { name: "Create key" }).click();
  await expect(admin.getByTestId("new-key-value")).toBeVisible();
  const keyRow = admin.getByTestId("api-key-row").filter({ hasText: name });
  await keyRow.getByRole("button", { name: `Revoke ${name}` }).click();
  await admin.getByRole("dialog", { name: `Revoke “${name}”?` }).getByRole("button", { name: "Revoke key" }).click();
  await expect(keyRow).toContainText("Revoked");

  await admin.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Security" }).click();
  await expect(admin.getByRole("heading", { name: "Security", level: 1 })).toBeVisible();
  const revoked = admin.getByTestId("audit-row").filter({ hasText: "api_key.revoked" }).filter({ hasText: name });
  await expect(revoked).toHaveCount(1);
  await expect(admin.getByTestId("audit-row").filter({ hasText: "api_key.created" }).filter({ hasText: name })).toHaveCount(1);
  await reviewPage(admin, "security");

  await admin.getByLabel("Action").selectOption("api_key.revoked");
  await admin.getByRole("button", { name: "Filter" }).click();
  await expect(admin).toHaveURL(/action=api_key\.revoked/);
  await expect(admin.getByRole("heading", { name: /Matching entries/ })).toBeVisible();
  const rows = admin.getByTestId("audit-row");
  await expect(revoked).toHaveCount(1);
  for (const row of await rows.all()) await expect(row).toContainText("api_key.revoked");
  await reviewPage(admin, "security-filtered");
  await admin.getByRole("link", { name: "Clear" }).click();
  await expect(admin.getByRole("heading", { name: /All entries/ })).toBeVisible();
});

test("developers and viewers neither see nor open the Security page", async ({ page, browser }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/overview$/);
  for (const role of ["developer", "viewer"] as const) {
    const member = await join(page, browser, role);
    await expect(member.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Security" })).toHaveCount(0);
    await member.goto("/security");
    await expect(member.getByRole("heading", { name: "Your role does not allow this page" })).toBeVisible();
  }
});
