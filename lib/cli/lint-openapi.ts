/**
 * `npm run lint:openapi`: writes the generated OpenAPI document to a temporary file and lints it with Redocly
 * (recommended-strict: warnings fail too) and Spectral (spectral:oas, failing on warnings). The rules turned
 * off in .redocly.yaml and .spectral.yaml are listed with their reasons in the README.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildOpenApiDocument } from "@/lib/openapi/document";

const root = path.resolve(import.meta.dirname, "..", "..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);

const dir = mkdtempSync(path.join(tmpdir(), "openapi-lint-"));
const file = path.join(dir, "openapi.json");
writeFileSync(file, JSON.stringify(buildOpenApiDocument(), null, 2));

const linters: [string, string[]][] = [
  [bin("redocly"), ["lint", "--config", path.join(root, ".redocly.yaml"), file]],
  [bin("spectral"), ["lint", "--ruleset", path.join(root, ".spectral.yaml"), "--fail-severity", "warn", file]],
];
let failed = false;
for (const [command, args] of linters) {
  // No telemetry or update checks from a lint run.
  const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };
  const run = spawnSync(command, args, { stdio: "inherit", cwd: root, env });
  if (run.status !== 0) failed = true;
}
rmSync(dir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
