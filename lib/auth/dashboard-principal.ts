import { auth } from "./auth";
import { userInOrganization } from "./users";
import { looksLikeJwt, verifyUserToken } from "./user-token";

/**
 * The organization and user behind a dashboard user token (Authorization: Bearer <jwt>) or, without
 * an Authorization header, the signed-in dashboard session. API keys never qualify.
 */
export async function resolveDashboardPrincipal(token: string | null) {
  if (token) {
    if (!looksLikeJwt(token)) return null;
    const claims = verifyUserToken(token);
    // A deleted user's tokens die with the user, even before they expire.
    if (!claims || !(await userInOrganization(claims.sub, claims.org))) return null;
    return { organizationId: claims.org, userId: claims.sub };
  }
  const session = await auth();
  if (!session?.organizationId || !session.userId) return null;
  return { organizationId: session.organizationId, userId: session.userId };
}
