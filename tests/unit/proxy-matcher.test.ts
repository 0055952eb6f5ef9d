import { readdirSync } from "node:fs";
import path from "node:path";
import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { describe, expect, it } from "vitest";
import { config } from "@/proxy";

const root = path.resolve(import.meta.dirname, "..", "..");
// Every section of the dashboard: a directory of app/(dashboard) that is a route segment (not `_private`).
const SECTIONS = readdirSync(path.join(root, "app", "(dashboard)"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !entry.name.startsWith("_"))
  .map((entry) => entry.name);

describe("proxy matcher", () => {
  it("knows the dashboard's sections", () => {
    expect(SECTIONS).toEqual(expect.arrayContaining(["overview", "orders", "logs", "security", "members", "account"]));
  });

  // The proxy answers 503 while the database is down and tells the page its address for sign-in to return to:
  // a section it does not match gets neither.
  it.each(SECTIONS)("runs the proxy on /%s and the pages below it", (section) => {
    for (const url of [`/${section}`, `/${section}/some-id`]) {
      expect(unstable_doesMiddlewareMatch({ config, url }), url).toBe(true);
    }
  });

  it("leaves API paths without a percent sign alone", () => {
    expect(unstable_doesMiddlewareMatch({ config, url: "/v1/orders" })).toBe(false);
  });
});
