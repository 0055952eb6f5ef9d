import { ApiError } from "./errors";
import type { ApiRequest } from "./route";

const MAX_BODY_BYTES = 1024 * 1024;

/** A field's path as error details name it: `items.0.quantity`, `(root)` for the value itself. */
export const fieldPath = (path: PropertyKey[]) => path.map(String).join(".") || "(root)";

// In a u-flag regex a surrogate pair is one code point, so this matches only unpaired halves.
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The path of the first string or key holding a lone surrogate (`"\ud800"` is valid JSON), or null.
 * Such a string is not Unicode text: postgres.js stores U+FFFD for it, PGlite drops what follows it.
 * Iterative, since a body may nest arrays thousands deep.
 */
function loneSurrogatePath(value: unknown): string | null {
  type Entry = { value: unknown; key?: PropertyKey; parent?: Entry };
  const pathOf = (entry: Entry, last?: PropertyKey) => {
    const keys: PropertyKey[] = last === undefined ? [] : [last];
    for (let e: Entry | undefined = entry; e?.parent; e = e.parent) keys.push(e.key!);
    return fieldPath(keys.reverse());
  };
  const stack: Entry[] = [{ value }];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const node = entry.value;
    if (typeof node === "string") {
      if (LONE_SURROGATE.test(node)) return pathOf(entry);
    } else if (Array.isArray(node)) {
      node.forEach((item, index) => stack.push({ value: item, key: index, parent: entry }));
    } else if (node !== null && typeof node === "object") {
      for (const [key, item] of Object.entries(node)) {
        if (LONE_SURROGATE.test(key)) return pathOf(entry, key);
        stack.push({ value: item, key, parent: entry });
      }
    }
  }
  return null;
}

/** The request body: its text as sent and the JSON value parsed from it. */
export interface RequestBody {
  text: string;
  value: unknown;
}

/**
 * Reads a JSON body of at most 1 MiB (the declared length is checked before reading, the real one while
 * reading); undefined when there is none. Anything else is a 4xx: too large, not JSON, not UTF-8, or text
 * that is not well-formed Unicode.
 */
export async function readBody(request: ApiRequest): Promise<RequestBody | undefined> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw new ApiError("payload_too_large", "Request body exceeds 1 MiB");
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    for await (const chunk of request.body) {
      size += chunk.byteLength;
      if (size > MAX_BODY_BYTES) throw new ApiError("payload_too_large", "Request body exceeds 1 MiB");
      chunks.push(chunk);
    }
  }
  if (size === 0) return undefined;
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json" && !type.endsWith("+json")) {
    throw new ApiError("unsupported_media_type", "Request body must be JSON (Content-Type: application/json)");
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new ApiError("invalid_json", "Request body is not valid UTF-8");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError("invalid_json", "Request body is not valid JSON");
  }
  const illFormed = loneSurrogatePath(value);
  if (illFormed) {
    throw new ApiError("validation_failed", "Invalid request body", [
      { path: illFormed, message: "Text must be well-formed Unicode (no unpaired surrogate escapes such as \\ud800)" },
    ]);
  }
  return { text, value };
}
