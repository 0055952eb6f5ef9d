import { jsonResponse, newTraceId } from "@/lib/http/errors";
import { byMethod } from "@/lib/http/route-exports";
import type { RouteHandler } from "@/lib/http/route";
import { openApiDocument } from "@/lib/openapi/document";

export const config = { api: { bodyParser: false } };

// Public: the document describes the API and holds no organization data.
const document: RouteHandler = async () =>
  jsonResponse(200, openApiDocument(), { "Cache-Control": "public, max-age=300", "X-Trace-Id": newTraceId() });

export default byMethod({ GET: document });
