import { headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { cache } from "react";
import { signedInUser, type SignedInUser } from "@/lib/auth/auth";
import { can, type Permission } from "@/lib/auth/permissions";
import { REQUESTED_PATH_HEADER, signInHref } from "./return-path";

export type DashboardSession = SignedInUser;

/**
 * The signed-in dashboard user, or null. A deleted user's session ends with the user, and a signed-out
 * one with the sign-out, even before the JWT expires. Cached per request so the layout and the page
 * share one lookup.
 */
export const currentSession = cache(signedInUser);

/**
 * The session of a dashboard page or server action whose role has the permission (lib/auth/permissions);
 * anyone signed out is sent to the sign-in page, which returns them to the page they asked for (the proxy
 * passes its address on), and a role without the permission gets the 403 page.
 */
export async function requireSession(permission: Permission): Promise<DashboardSession> {
  const session = await currentSession();
  if (!session) redirect(signInHref((await headers()).get(REQUESTED_PATH_HEADER)));
  if (!can(session.role, permission)) forbidden();
  return session;
}
