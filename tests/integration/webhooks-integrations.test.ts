import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/errors";
import {
  createIntegration,
  getIntegration,
  listIntegrations,
  rotateIntegrationSecret,
  updateIntegration,
} from "@/lib/webhooks/integrations";
import { useTestDatabase } from "../support/database";
import { createTenant } from "../support/fixtures";

const SECRET = /^whsec_[A-Za-z0-9_-]{43}$/;

describe("webhook integrations", () => {
  useTestDatabase();

  it("creates a signed integration subscribed to OrderCompleted by default", async () => {
    const { organization } = await createTenant();
    const created = await createIntegration({ organizationId: organization.id, url: "http://127.0.0.1:9999/hooks" });
    expect(created).toEqual({
      id: expect.stringMatching(/^int_[0-9a-f]{32}$/),
      url: "http://127.0.0.1:9999/hooks",
      events: ["OrderCompleted"],
      description: "",
      enabled: true,
      signed: true,
      retry_schedule: "immediate",
      signing_secret: expect.stringMatching(SECRET),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await getIntegration(organization.id, created.id)).toEqual(created);
    expect(await listIntegrations(organization.id)).toEqual([created]);
  });

  it("takes a retry schedule of immediate or nominal, and refuses any other with validation_failed", async () => {
    const { organization } = await createTenant();
    const spaced = await createIntegration({ organizationId: organization.id, url: "http://127.0.0.1:9999/hooks", retrySchedule: "nominal" });
    expect(spaced.retry_schedule).toBe("nominal");
    expect((await updateIntegration(organization.id, spaced.id, { retrySchedule: "immediate" })).retry_schedule).toBe("immediate");
    await expect(updateIntegration(organization.id, spaced.id, { retrySchedule: "hourly" })).rejects.toMatchObject({
      code: "validation_failed",
      details: [{ path: "retry_schedule", message: "must be one of immediate, nominal" }],
    });
    expect((await getIntegration(organization.id, spaced.id)).retry_schedule).toBe("immediate");
  });

  it("refuses bad URLs and events with validation_failed", async () => {
    const { organization } = await createTenant();
    for (const url of ["not a url", "ftp://example.com/x", "https://user:pw@example.com/x"]) {
      const error = await createIntegration({ organizationId: organization.id, url }).catch((e: unknown) => e);
      expect(error, url).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe("validation_failed");
      expect((error as ApiError).details?.[0]?.path).toBe("url");
    }
    const error = await createIntegration({ organizationId: organization.id, url: "http://127.0.0.1/x", events: [] }).catch((e: unknown) => e);
    expect((error as ApiError).details?.[0]?.path).toBe("events");
  });

  it("updates, disables and rotates; an unsigned integration gets a secret on its next update", async () => {
    const { organization } = await createTenant();
    const legacy = await createIntegration({ organizationId: organization.id, url: "http://127.0.0.1:1/a", signed: false });
    expect(legacy.signing_secret).toBeUndefined();
    const updated = await updateIntegration(organization.id, legacy.id, { url: "http://127.0.0.1:2/b", enabled: false });
    expect(updated).toMatchObject({ url: "http://127.0.0.1:2/b", enabled: false, signing_secret: expect.stringMatching(SECRET) });
    const again = await updateIntegration(organization.id, legacy.id, { enabled: true });
    expect(again.signing_secret).toBe(updated.signing_secret);
    const rotated = await rotateIntegrationSecret(organization.id, legacy.id);
    expect(rotated.signing_secret).toMatch(SECRET);
    expect(rotated.signing_secret).not.toBe(updated.signing_secret);
  });

  it("hides other organizations' integrations (not_found)", async () => {
    const owner = await createTenant();
    const other = await createTenant();
    const created = await createIntegration({ organizationId: owner.organization.id, url: "http://127.0.0.1/x" });
    for (const attempt of [
      () => getIntegration(other.organization.id, created.id),
      () => updateIntegration(other.organization.id, created.id, { enabled: false }),
      () => rotateIntegrationSecret(other.organization.id, created.id),
      () => getIntegration(owner.organization.id, "int_nonsense"),
    ]) {
      await expect(attempt()).rejects.toMatchObject({ code: "not_found" });
    }
    expect(await listIntegrations(other.organization.id)).toEqual([]);
    expect((await getIntegration(owner.organization.id, created.id)).enabled).toBe(true);
  });
});
