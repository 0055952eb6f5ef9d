import { expect, test } from "@playwright/test";
import { demo, reviewPage, signIn } from "./support";

test("the sign-in page is accessible and asks for credentials", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/overview");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await reviewPage(page, "login");
});

test("a wrong password gets one message that does not say which part was wrong", async ({ page }) => {
  await signIn(page, { email: demo().login.email, password: "not-the-password" });
  await expect(page.getByTestId("form-error")).toHaveText("Invalid email or password");
  await expect(page).toHaveURL(/\/login$/);

  await signIn(page, { email: "nobody@example.test", password: "not-the-password" });
  await expect(page.getByTestId("form-error")).toHaveText("Invalid email or password");
  await reviewPage(page, "login-failed");
});

test("empty fields are reported next to the field", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Enter your email address")).toBeVisible();
  await expect(page.getByText("Enter your password")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
});

test("repeated failures for an address are refused for a while", async ({ page }) => {
  const email = "guesser@example.test";
  for (let i = 0; i < 5; i++) {
    await signIn(page, { email, password: `wrong-${i}` });
    await expect(page.getByTestId("form-error")).toHaveText("Invalid email or password");
  }
  await signIn(page, { email, password: "wrong-again" });
  await expect(page.getByTestId("form-error")).toContainText("Too many failed sign-in attempts");
});

test("signing in lands on the Overview with revenue, and signing out ends the session", async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/overview$/);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(page.getByTestId("stat-revenue")).toHaveText(/\d/);
  await expect(page.getByTestId("stat-revenue")).not.toHaveText(/^\D*0[.,]00\D*$/);

  await page.goto("/");
  await expect(page).toHaveURL(/\/overview$/);
  await page.getByRole("button", { name: "Sign out" }).filter({ visible: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/api-keys");
  // Signing in again would return to the page asked for.
  await expect(page).toHaveURL(/\/login\?next=%2Fapi-keys$/);
});
