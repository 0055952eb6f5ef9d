import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../support/database";
import { useTestServer } from "../support/server";

describe("GET /api/health", () => {
  const database = useTestDatabase();
  const server = useTestServer();

  it("answers 200 with the database status of the driver in use", async () => {
    const response = await fetch(`${server.url()}/api/health`);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-trace-id")).toMatch(/^[0-9a-f]{24}$/);
    const body = await response.json();
    expect(body).toMatchObject({ status: "ok", database: { status: "ok", driver: database.handle().driver } });
  });
});
