import { ApiError } from "@/lib/http/errors";
import { errorResponse, newTraceId } from "@/lib/http/route";

// Unknown /v1 paths (and /v1 itself) answer with the API's error body rather than Next's HTML 404
// page. No key is checked: there is nothing here to protect, and a 404 reveals nothing about any organization.
async function unknownPath(): Promise<Response> {
  return errorResponse(new ApiError("not_found", "No such endpoint"), newTraceId());
}

export const GET = unknownPath;
export const POST = unknownPath;
export const PUT = unknownPath;
export const PATCH = unknownPath;
export const DELETE = unknownPath;
