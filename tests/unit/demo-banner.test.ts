import { describe, expect, it } from "vitest";
import { demoBanner } from "@/lib/demo/banner";

const demo = { login: { email: "demo@example.com", password: "demo-password" }, apiKey: "sk_demo" };

describe("demoBanner", () => {
  it("points at the API reference of the running server", () => {
    const lines = demoBanner(demo, "http://localhost:3000").split("\n");
    expect(lines).toContain("  API docs:     http://localhost:3000/docs/api");
    expect(lines).toContain("  Demo API key: sk_demo");
  });

  it("names no URL when it does not know the server's", () => {
    expect(demoBanner(demo)).not.toContain("http");
  });
});
