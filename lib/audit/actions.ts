/**
 * Every action the audit log records, with what it means (the README's table and the Security page's filter
 * list come from here). Dotted: `<target type>.<what happened>`.
 */
export const AUDIT_ACTIONS = {
  "api_key.created": "An API key was created",
  "api_key.revoked": "An API key was revoked",
  "integration.created": "A webhook integration was created",
  "integration.updated": "A webhook integration's URL, events, description or retry schedule changed",
  "integration.enabled": "A webhook integration was enabled",
  "integration.disabled": "A webhook integration was disabled by hand",
  "integration.deleted": "A webhook integration was deleted",
  "integration.secret_revealed": "A webhook integration's signing secret was shown",
  "integration.secret_rotated": "A webhook integration's signing secret was replaced",
  "integration.deliveries_recovered": "The failed deliveries of a time window were queued again (one entry, with the count)",
  "delivery.redelivered": "One webhook delivery was sent again",
  "member.invited": "A member was invited",
  "member.role_changed": "A member's role changed",
  "member.removed": "A member was removed",
  "member.left": "A member left the organization",
  "invitation.accepted": "An invitation was accepted (the new member set a password)",
  "user.password_changed": "A user changed their password",
  "user.signed_in": "A user signed in to the dashboard",
  "user.sign_in_failed": "A dashboard sign-in failed (wrong password or throttled)",
  "event.cancelled": "An event was cancelled (its completed orders refunded)",
  "event.deleted": "An event was deleted (its completed orders refunded)",
  "order.refunded": "An order was refunded",
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];
