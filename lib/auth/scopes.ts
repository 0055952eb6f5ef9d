export const SCOPES = [
  "orders:read",
  "orders:write",
  "events:read",
  "events:write",
  "venues:read",
  "venues:write",
  "memberships:read",
  "customers:read",
  "audit:read",
  "logs:read",
  "*",
] as const;

export type Scope = (typeof SCOPES)[number];

// A granted scope that also satisfies others: customers:read includes membership data.
const IMPLIES: Partial<Record<Scope, Scope[]>> = {
  "customers:read": ["memberships:read"],
};

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export function hasScope(granted: readonly string[], required: Scope): boolean {
  return granted.some(
    (scope) => scope === "*" || scope === required || (isScope(scope) && IMPLIES[scope]?.includes(required)),
  );
}
