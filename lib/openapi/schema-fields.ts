import type { JsonSchema } from "./json-schema";

export interface FieldRow {
  /** Dotted path; `[]` marks the elements of an array, e.g. `data[].address.city`. */
  name: string;
  type: string;
  required: boolean;
  notes: string;
}

// zod's z.int() without bounds documents the safe-integer range, which says nothing to a reader.
const SAFE_LIMIT = Number.MAX_SAFE_INTEGER;
// Date and e-mail patterns run to hundreds of characters; their `format` already says what they are.
const READABLE_PATTERN_LENGTH = 40;

function resolve(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const target = typeof schema.$ref === "string" ? schema.$ref.replace("#/components/schemas/", "") : undefined;
  return target ? resolve(components[target] ?? {}, components) : schema;
}

/** A short type label: `string (date-time)`, `integer`, `"a" | "b"`, `array`. */
export function typeLabel(raw: JsonSchema, components: Record<string, JsonSchema> = {}): string {
  const schema = resolve(raw, components);
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).map((s) => typeLabel(s, components)).join(" | ");
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).map((v) => JSON.stringify(v)).join(" | ");
  if (schema.type === "array" && schema.items) return `array of ${typeLabel(schema.items as JsonSchema, components)}`;
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : String(schema.type ?? "any");
  return typeof schema.format === "string" ? `${type} (${schema.format})` : type;
}

/** Constraints and description of one schema, as one line of text. */
export function constraintNotes(raw: JsonSchema, components: Record<string, JsonSchema> = {}): string {
  const schema = resolve(raw, components);
  const notes: string[] = [];
  const min = schema.minimum as number | undefined;
  const max = schema.maximum as number | undefined;
  if (min !== undefined && max !== undefined && Math.abs(min) < SAFE_LIMIT && max < SAFE_LIMIT) notes.push(`${min} to ${max}`);
  else if (min !== undefined && Math.abs(min) < SAFE_LIMIT) notes.push(`at least ${min}`);
  else if (max !== undefined && max < SAFE_LIMIT) notes.push(`at most ${max}`);
  if (schema.minLength !== undefined || schema.maxLength !== undefined) {
    notes.push(`length ${schema.minLength ?? 0} to ${schema.maxLength ?? "any"}`);
  }
  if (schema.minItems !== undefined || schema.maxItems !== undefined) {
    notes.push(`${schema.minItems ?? 0} to ${schema.maxItems ?? "any"} items`);
  }
  if (typeof schema.pattern === "string" && schema.pattern.length <= READABLE_PATTERN_LENGTH) notes.push(`pattern ${schema.pattern}`);
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  if (typeof schema.description === "string") notes.push(schema.description);
  return notes.join("; ");
}

/** Every field of an object schema, depth first, with nested objects and array elements flattened. */
export function schemaFields(raw: JsonSchema, components: Record<string, JsonSchema>, prefix = ""): FieldRow[] {
  const schema = resolve(raw, components);
  const rows: FieldRow[] = [];
  const required = new Set((schema.required as string[] | undefined) ?? []);
  for (const [key, rawProperty] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
    const property = resolve(rawProperty, components);
    const name = prefix + key;
    rows.push({ name, type: typeLabel(property, components), required: required.has(key), notes: constraintNotes(property, components) });
    if (property.type === "object") rows.push(...schemaFields(property, components, `${name}.`));
    if (property.type === "array" && property.items) {
      const items = resolve(property.items as JsonSchema, components);
      if (items.type === "object") rows.push(...schemaFields(items, components, `${name}[].`));
    }
  }
  return rows;
}
