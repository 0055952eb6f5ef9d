import { newTraceId } from "@/lib/http/errors";
import { options } from "@/lib/http/route-exports";
import { openApiDocument } from "@/lib/openapi/document";

// Public: the document describes the API and holds no organization data.
export function GET(): Response {
  return Response.json(openApiDocument(), {
    headers: { "Cache-Control": "public, max-age=300", "X-Trace-Id": newTraceId() },
  });
}

export const OPTIONS = options(["GET"]);
