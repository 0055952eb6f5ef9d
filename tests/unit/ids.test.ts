import { describe, expect, it } from "vitest";
import { fromPublicId, normalizeUuid, toPublicId } from "@/lib/ids";

const uuid = "3f2a6c1e-9b7d-4e5f-8a1b-2c3d4e5f6a7b";

describe("public ids", () => {
  it("round-trips a uuid through its prefixed form", () => {
    const id = toPublicId("event", uuid);
    expect(id).toBe("evt_3f2a6c1e9b7d4e5f8a1b2c3d4e5f6a7b");
    expect(fromPublicId("event", id)).toBe(uuid);
  });

  it("refuses another kind's prefix, garbage and injection text", () => {
    expect(fromPublicId("venue", toPublicId("event", uuid))).toBeNull();
    expect(fromPublicId("event", "evt_")).toBeNull();
    expect(fromPublicId("event", "evt_' or 1=1 --")).toBeNull();
    expect(fromPublicId("event", "evt_3f2a6c1e9b7d4e5f8a1b2c3d4e5f6a7")).toBeNull();
  });

  it("normalizes case and dashes of bare uuids", () => {
    expect(normalizeUuid(uuid.toUpperCase())).toBe(uuid);
    expect(normalizeUuid(uuid.replaceAll("-", ""))).toBe(uuid);
    expect(normalizeUuid("not-a-uuid")).toBeNull();
  });
});
