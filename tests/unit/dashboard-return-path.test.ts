import { describe, expect, it } from "vitest";
import { safeReturnPath, signInHref } from "@/lib/dashboard/return-path";

describe("the page to return to after sign-in", () => {
  it("keeps same-origin paths with their query", () => {
    expect(safeReturnPath("/orders?status=refunded&page=2")).toBe("/orders?status=refunded&page=2");
    expect(safeReturnPath("/events/evt_1")).toBe("/events/evt_1");
    expect(signInHref("/orders?status=refunded")).toBe("/login?next=%2Forders%3Fstatus%3Drefunded");
  });

  it("refuses anything that could leave the site, or loop back to sign-in", () => {
    for (const bad of [
      "//evil.example/x",
      "/\\evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "evil.example",
      "",
      "/\t/evil.example",
      "/login",
      "/login?next=/orders",
      null,
      ["/orders"],
    ]) {
      expect(safeReturnPath(bad), String(bad)).toBeNull();
    }
    expect(signInHref("//evil.example")).toBe("/login");
    expect(signInHref(null)).toBe("/login");
  });
});
