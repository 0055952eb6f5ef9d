export async function register() {
  // Migrations run in the Node.js server only; the edge runtime has no database driver.
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServerRuntime } = await import("@/lib/server-runtime");
  await startServerRuntime();
}
