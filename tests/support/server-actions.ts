import { readFileSync } from "node:fs";
import path from "node:path";
import { env } from "@/lib/env";

interface ServerReferenceManifest {
  node: Record<string, { filename?: string; exportedName?: string }>;
}

/**
 * The id the production build gave a server action, to call it over HTTP as the browser does
 * (POST with a Next-Action header). Read from the build's server reference manifest.
 */
export function serverActionId(filename: string, exportedName?: string): string {
  const file = path.join(path.resolve(env.NEXT_DIST_DIR), "server", "server-reference-manifest.json");
  const manifest = JSON.parse(readFileSync(file, "utf8")) as ServerReferenceManifest;
  const found = Object.entries(manifest.node).find(
    ([, action]) => action.filename === filename && (exportedName === undefined || action.exportedName === exportedName),
  );
  if (!found) throw new Error(`serverActionId: no server action in ${filename} in the build (run npm run build)`);
  return found[0];
}
