import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..", "..");
const run = promisify(execFile);

// Pure modules that client components (scopes, the navigation's permissions) and the proxy (same-origin) import:
// nothing secret in them.
const SHARED_AUTH_MODULES = new Set(["scopes.ts", "same-origin.ts", "permissions.ts"]);
const SERVER_ONLY_MODULES = [
  "db/client.ts",
  "lib/env.ts",
  ...readdirSync(path.join(root, "lib", "auth"))
    .filter((name) => name.endsWith(".ts") && !SHARED_AUTH_MODULES.has(name))
    .map((name) => `lib/auth/${name}`),
];

describe("server-only modules", () => {
  it.each(SERVER_ONLY_MODULES)("%s imports server-only first, so a client bundle importing it fails to build", (file) => {
    const firstImport = readFileSync(path.join(root, file), "utf8").match(/^import .*$/m)?.[0];
    expect(firstImport).toBe('import "server-only";');
  });

  it("refuses to load outside the react-server condition, and loads within it (the CLI scripts' flag)", async () => {
    const tsx = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
    const script = 'import("./lib/auth/secrets.ts").then((m) => console.log(typeof m.hashPassword))';
    await expect(run(process.execPath, [tsx, "-e", script], { cwd: root })).rejects.toThrow(/Client Component/);
    const { stdout } = await run(process.execPath, [tsx, "--conditions=react-server", "-e", script], { cwd: root });
    expect(stdout.trim()).toBe("function");
  }, 30_000);
});
