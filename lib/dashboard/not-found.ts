import { notFound as nextNotFound } from "next/navigation";
import { ApiError } from "@/lib/http/errors";

/** A domain lookup whose not_found becomes the dashboard's 404 page (malformed and foreign ids alike). */
export async function orNotFound<T>(lookup: Promise<T>): Promise<T> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") nextNotFound();
    throw error;
  }
}
