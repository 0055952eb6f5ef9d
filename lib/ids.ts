/**
 * Public identifiers are a type prefix plus the row's UUID without dashes (`evt_3f2a...`), so an id
 * names its kind and a mistyped kind is a plain 404. The transactions model uses the bare order UUID.
 */
export const ID_PREFIXES = {
  organization: "org",
  user: "usr",
  apiKey: "key",
  order: "ord",
  venue: "ven",
  event: "evt",
  ticketType: "tkt",
  membership: "mem",
  campaign: "cmp",
  integration: "int",
  delivery: "dlv",
  recovery: "rcv",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const UUID_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

export function toPublicId(kind: IdKind, uuid: string): string {
  return `${ID_PREFIXES[kind]}_${uuid.replaceAll("-", "")}`;
}

/** The row UUID behind a public id, or null when the text is not an id of that kind. */
export function fromPublicId(kind: IdKind, publicId: string): string | null {
  const prefix = `${ID_PREFIXES[kind]}_`;
  if (!publicId.startsWith(prefix)) return null;
  return normalizeUuid(publicId.slice(prefix.length));
}

export function normalizeUuid(text: string): string | null {
  if (!UUID_RE.test(text)) return null;
  const hex = text.replaceAll("-", "").toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
