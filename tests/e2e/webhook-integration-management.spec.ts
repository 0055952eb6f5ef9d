import { expect, test } from "@playwright/test";
import { reviewPage, signIn } from "./support";

test.beforeEach(async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/overview$/);
});

test("an integration is edited, rotated with an overlap and deleted from the dashboard", async ({ page }) => {
  await page.goto("/integrations");
  const url = `http://127.0.0.1:9/${Date.now()}/manage`;
  await page.getByLabel("Endpoint URL").fill(url);
  await page.getByRole("button", { name: "Add webhook" }).click();
  const integration = page.getByTestId("integration").filter({ hasText: url });
  await expect(integration).toBeVisible();

  await integration.getByRole("button", { name: `Edit of ${url}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit webhook" });
  await edit.getByLabel("Description (optional)").fill("Accounting sync");
  await edit.getByRole("checkbox", { name: /OrderRefunded/ }).check();
  await reviewPage(page, "integration-edit-dialog");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toBeHidden();
  await expect(integration).toContainText("Accounting sync");
  await expect(integration).toContainText("OrderRefunded");
  await expect(page.getByTestId("notice")).toHaveText("Integration saved.");

  await integration.getByRole("button", { name: `Rotate secret of ${url}` }).click();
  const rotate = page.getByRole("dialog", { name: "Rotate the signing secret?" });
  await rotate.getByLabel("The current secret expires").selectOption({ label: "In 1 hour" });
  await reviewPage(page, "integration-rotate-dialog");
  await rotate.getByRole("button", { name: "Rotate secret" }).click();
  await expect(rotate).toBeHidden();
  await expect(integration.getByTestId("new-signing-secret")).toHaveText(/^whsec_/);
  await expect(integration).toContainText("Previous secret still signs until");
  await reviewPage(page, "integration-management");

  await integration.getByRole("button", { name: `Delete of ${url}` }).click();
  const remove = page.getByRole("dialog", { name: "Delete this webhook?" });
  await reviewPage(page, "integration-delete-dialog");
  await remove.getByRole("button", { name: "Delete webhook" }).click();
  await expect(integration).toHaveCount(0);
  await expect(page.getByTestId("notice")).toHaveText("Integration deleted. Its delivery history stays under Deliveries.");
  await reviewPage(page, "integration-deleted");
});
