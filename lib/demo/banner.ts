import type { DemoSeedResult } from "./seed-demo";

/** The lines printed after seeding and at start-up, so a newcomer can sign in and call the API at once. */
export function demoBanner(demo: Pick<DemoSeedResult, "login" | "apiKey">, baseUrl?: string): string {
  const lines = [
    ...(baseUrl ? [`  URL:          ${baseUrl}`, `  API docs:     ${baseUrl}/docs/api`] : []),
    `  Demo login:   ${demo.login.email} / ${demo.login.password}`,
    `  Demo API key: ${demo.apiKey}`,
    ...(baseUrl
      ? ["", "  Try it:", `    curl -H "Authorization: Bearer ${demo.apiKey}" ${baseUrl}/v1/events`]
      : []),
  ];
  return lines.join("\n");
}
