import { jsonResponse, newTraceId } from "@/lib/http/errors";
import { byMethod } from "@/lib/http/route-exports";
import type { RouteHandler } from "@/lib/http/route";
import { RETRY_AFTER_SECONDS } from "@/lib/dashboard/unavailable-page";
import { databaseHealth } from "@/lib/health";

export const config = { api: { bodyParser: false } };

const health: RouteHandler = async () => {
  const database = await databaseHealth();
  const healthy = database.status === "ok";
  return jsonResponse(
    healthy ? 200 : 503,
    { status: healthy ? "ok" : "degraded", database },
    { "X-Trace-Id": newTraceId(), ...(healthy ? {} : { "Retry-After": String(RETRY_AFTER_SECONDS) }) },
  );
};

export default byMethod({ GET: health });
