import type { z } from "zod";
import type { Permission } from "@/lib/auth/permissions";
import type { Scope } from "@/lib/auth/scopes";

export type HttpMethod = "get" | "post" | "patch" | "delete";

/**
 * Who may call an endpoint: an `sk_` key with a scope, or a dashboard user (token or session) whose role
 * has the permission (lib/auth/permissions).
 */
export type Access = { scope: Scope } | { dashboard: Permission };

/** A group of operations: the OpenAPI tag and a section of the reference page. */
export interface Resource {
  name: string;
  description: string;
}

/** `/v1/events/{event_id}/tickets/{id}` → `"event_id" | "id"`. */
export type PathParamNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParamNames<Rest>
  : never;

/**
 * One endpoint, declared once: the route wrapper serves it (`endpoint(operation, handler)`) and the OpenAPI
 * document and the reference page describe it, all from this object.
 */
export interface OperationSpec {
  method: HttpMethod;
  /** OpenAPI form, path parameters as `{name}`: the names of the route folders. */
  path: string;
  summary: string;
  description: string;
  access: Access;
  /** Description of each path parameter (the document refuses names that are not the path's). */
  params?: Record<string, string>;
  /** Parsed from the query string before the handler runs; unknown parameters are ignored. */
  query?: z.ZodType;
  /** What a query parameter means, where its schema carries no description. */
  queryNotes?: Record<string, string>;
  /** Parsed from the JSON body before the handler runs (strict objects: unknown fields are refused). */
  body?: z.ZodType;
  /** A request body the endpoint accepts, shown on the reference page (tests parse it with `body`). */
  bodyExample?: unknown;
  response: {
    status: 200 | 201 | 204;
    description: string;
    schema?: z.ZodType;
    /** The component name of `schema` in the OpenAPI document. */
    name?: string;
    /** A response body as the endpoint answers it (tests parse it with `schema`). */
    example?: unknown;
    /** A response that is not JSON (a download): its media types, each with an example body. */
    media?: Record<string, string>;
  };
  /**
   * The `Location` of a 201: the new resource's path, `{name}` filled from the response body's field of that
   * name, else from the request's path parameter.
   */
  location?: string;
  /** When the operation answers 409, beyond an Idempotency-Key reused with another body. */
  conflict?: string;
}

export type Operation<Spec extends OperationSpec = OperationSpec> = Spec & { operationId: string; resource: Resource };

/**
 * The operations of one resource, keyed by operationId. `const` keeps each path a literal type, so a handler's
 * `params` are typed by the path it serves.
 */
export function defineResource<const Specs extends Record<string, OperationSpec>>(
  resource: Resource,
  specs: Specs,
): { [Id in keyof Specs]: Operation<Specs[Id]> } {
  return Object.fromEntries(
    Object.entries(specs).map(([operationId, spec]) => [operationId, { ...spec, operationId, resource }]),
  ) as { [Id in keyof Specs]: Operation<Specs[Id]> };
}
