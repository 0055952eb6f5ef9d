/**
 * The API's public path prefixes. Their routes are Pages Router API routes under pages/api/<prefix>, which
 * next.config.ts rewrites /<prefix>/… to (lib/http/pages-api.ts says why); proxy.ts tells API paths from the
 * dashboard's by them.
 */
export const API_PREFIXES = ["v1", "webhooks", "analytics_search"] as const;
