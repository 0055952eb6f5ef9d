import { z } from "zod";
import { USER_ROLES } from "@/db/schema";

const role = z.enum(USER_ROLES, { error: "Choose one of the offered roles" });
const memberId = z.uuid();
const newPassword = z.string().min(8, "The password needs at least 8 characters").max(200, "The password can have at most 200 characters");

export const inviteFormSchema = z.strictObject({ email: z.email("Enter a valid e-mail address").max(320), role });
export const setRoleFormSchema = z.strictObject({ id: memberId, role });
export const removeMemberFormSchema = z.strictObject({ id: memberId });
export const changePasswordFormSchema = z.strictObject({ current: z.string().min(1, "Enter your current password").max(1000), password: newPassword });
/** What the account page says after one's own password changed. */
export const PASSWORD_CHANGED = "Password changed. Your other sessions have ended.";
export const acceptInvitationFormSchema = z.strictObject({ token: z.string().min(1).max(200), password: newPassword });

/** What each role may do, in the members page's words (lib/auth/permissions is what is enforced). */
export const ROLE_DESCRIPTIONS: Record<(typeof USER_ROLES)[number], string> = {
  owner: "everything, including members and owners",
  admin: "everything except managing owners",
  developer: "API keys, integrations, secrets, deliveries; reads orders, events, venues",
  viewer: "reads the overview, orders, events, venues; never a secret, a key or a payload",
};
