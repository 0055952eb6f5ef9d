import { servedFunctions } from "@/inngest/serve";
import { notFound } from "@/lib/http/errors";
import { errorResponse, newTraceId } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// Without Inngest keys the functions run in-process; answering 404 means nobody can trigger unsigned runs.
const notServed = async () => errorResponse(notFound("Inngest endpoint"), newTraceId());

export const { GET, POST, PUT } = servedFunctions() ?? { GET: notServed, POST: notServed, PUT: notServed };
