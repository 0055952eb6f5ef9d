import { z } from "zod";

export type JsonSchema = { [key: string]: unknown };

export const JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

type Io = "input" | "output";
type OverrideContext = Parameters<NonNullable<z.core.JSONSchemaGeneratorParams["override"]>>[0];

function replaceContents(target: JsonSchema, source: JsonSchema): void {
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, source);
}

/**
 * Query strings are text, so integer query parameters are parsed from strings (text → Number → range check).
 * Their input side says only "a string of digits"; OpenAPI's query parameter schema describes the value the
 * text spells, so they are documented as the integer range they must fall in, with their default.
 */
function overrideFor(io: Io) {
  return (ctx: OverrideContext) => {
    const def = ctx.zodSchema._zod.def;
    if (io === "input" && def.type === "pipe" && def.out._zod.def.type === "number") {
      replaceContents(ctx.jsonSchema as JsonSchema, jsonSchemaOf(def.out as z.ZodType, "output"));
    }
    if (def.type === "default" && ctx.jsonSchema.default === undefined) {
      ctx.jsonSchema.default = JSON.parse(JSON.stringify(def.defaultValue));
    }
  };
}

function withoutMeta({ $schema: _schema, $id: _id, ...rest }: JsonSchema): JsonSchema {
  return rest;
}

/** The JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) of one zod schema's input or output side. */
export function jsonSchemaOf(schema: z.ZodType, io: Io): JsonSchema {
  return withoutMeta(z.toJSONSchema(schema, { target: "draft-2020-12", io, override: overrideFor(io) }) as JsonSchema);
}

/**
 * Named schemas as OpenAPI components: a schema nested inside another named one becomes a `$ref`
 * (so Venue is defined once and VenueList points at it).
 */
export function componentSchemas(named: Map<string, z.ZodType>, io: Io): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of named) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    io,
    override: overrideFor(io),
    uri: (id) => `#/components/schemas/${id}`,
  });
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, withoutMeta(schema as JsonSchema)]));
}
