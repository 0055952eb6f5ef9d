/** The most of a request body the log keeps, in UTF-8 bytes. */
export const MAX_LOGGED_BODY_BYTES = 10 * 1024;

// Field names that hold credentials or payment data, however they are spelled: password, client_secret,
// access_token, Authorization, apiKey, signing_key, card_number, cvc…
const SECRET_FIELD = /pass(word|wd|phrase)?|secret|token|authori[sz]ation|cookie|credential|key$|card|cvc|cvv|iban|ssn/i;
export const REDACTED = "[redacted]";
// Deeper than any body the API accepts; a body nested deeper is cut there, so walking it cannot overflow the stack.
const MAX_DEPTH = 32;
const TOO_DEEP = "[nested too deep]";

/** The JSON value with every secret-like field's value replaced, at any depth. */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [name, SECRET_FIELD.test(name) ? REDACTED : redactSecrets(item, depth + 1)]),
  );
}

export interface LoggedBody {
  text: string;
  truncated: boolean;
}

/** The body as the log stores it: redacted JSON, cut at MAX_LOGGED_BODY_BYTES with a marker naming the full size. */
export function loggedBody(value: unknown): LoggedBody {
  const text = JSON.stringify(redactSecrets(value));
  const bytes = Buffer.from(text, "utf8");
  if (bytes.byteLength <= MAX_LOGGED_BODY_BYTES) return { text, truncated: false };
  // A cut inside a multi-byte character decodes to U+FFFD; drop that half character.
  const kept = bytes.subarray(0, MAX_LOGGED_BODY_BYTES).toString("utf8").replace(/\uFFFD+$/, "");
  return { text: `${kept}…[truncated: ${bytes.byteLength} bytes in all]`, truncated: true };
}
