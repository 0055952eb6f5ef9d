/**
 * Dashboard roles, most to least powerful; what each may do is lib/auth/permissions. A file of its own so
 * client components can list the roles without the table definitions.
 */
export const USER_ROLES = ["owner", "admin", "developer", "viewer"] as const;
export type Role = (typeof USER_ROLES)[number];
