/**
 * `npm install` (postinstall): repairs two defects of postgres.js 3.4.9 (the newest release) that break the
 * app when the database goes away; upstream: github.com/porsager/postgres issues 1066, 1154 and 1208.
 *  - closed() and terminate() cancel a deferred write without forgetting it, and that connection never
 *    writes again: once the database is back, every connect on it times out (CONNECT_TIMEOUT) for the life
 *    of the process, so the pool shrinks with each outage.
 *  - A query written on a connection whose socket is gone throws from a setImmediate, an uncaught
 *    exception, instead of failing that query.
 * Idempotent. Fails loudly when the driver is not the code this was written for: after an upgrade, check
 * whether the release fixes both and remove this script (and the postinstall entry) if it does.
 */
import { readFileSync, writeFileSync } from "node:fs";

const VERSION = "3.4.9";
const MARK = "/* patched by db/patch-postgres-driver.mjs */";
const driver = new URL("../node_modules/postgres/", import.meta.url);
const BUILDS = ["src", "cjs/src", "cf/src"];

const installed = JSON.parse(readFileSync(new URL("package.json", driver), "utf8")).version;
if (installed !== VERSION) {
  throw new Error(`db/patch-postgres-driver.mjs was written for postgres ${VERSION}, found ${installed}: re-check and update it`);
}

function patched(source, file) {
  const nextWrite = "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)\n";
  const teardown = "\n    clearImmediate(nextWriteTimer)\n";
  if (source.split(nextWrite).length !== 2 || source.split(teardown).length !== 3) {
    throw new Error(`${file}: not the postgres ${VERSION} code db/patch-postgres-driver.mjs expects`);
  }
  return source
    .replace(
      nextWrite,
      [
        "  function nextWrite(fn) {",
        `    if (!socket) { ${MARK}`,
        "      chunk = nextWriteTimer = null",
        "      error(Errors.connection('CONNECTION_CLOSED', options))",
        "      return false",
        "    }",
        "    const x = socket.write(chunk, fn)",
        "",
      ].join("\n"),
    )
    .replaceAll(teardown, `\n    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null ${MARK}\n`);
}

for (const build of BUILDS) {
  const file = new URL(`${build}/connection.js`, driver);
  const source = readFileSync(file, "utf8");
  if (source.includes(MARK)) continue;
  writeFileSync(file, patched(source, file.pathname));
}
