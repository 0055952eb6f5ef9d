import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { auth } from "@/lib/auth/auth";
import { userInOrganization } from "@/lib/auth/users";
import { REQUESTED_PATH_HEADER, signInHref } from "./return-path";

export interface DashboardSession {
  organizationId: string;
  userId: string;
  email: string | null;
}

/**
 * The signed-in dashboard user, or null. A deleted user's session ends with the user, even before the
 * JWT expires. Cached per request so the layout and the page share one lookup.
 */
export const currentSession = cache(async (): Promise<DashboardSession | null> => {
  const session = await auth();
  const organizationId = session?.organizationId;
  const userId = session?.userId;
  if (!organizationId || !userId || !(await userInOrganization(userId, organizationId))) return null;
  return { organizationId, userId, email: session.user?.email ?? null };
});

/**
 * The session of a dashboard page or server action; anyone else is sent to the sign-in page, which
 * returns them to the page they asked for (the proxy passes its address on).
 */
export async function requireSession(): Promise<DashboardSession> {
  const session = await currentSession();
  if (!session) redirect(signInHref((await headers()).get(REQUESTED_PATH_HEADER)));
  return session;
}
