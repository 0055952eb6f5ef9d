import "server-only";
import { signedInUser } from "./auth";
import { currentSessionRole } from "./users";
import { looksLikeJwt, verifyUserToken } from "./user-token";

/**
 * The organization and user behind a dashboard user token (Authorization: Bearer <jwt>) or, without
 * an Authorization header, the signed-in dashboard session. API keys never qualify. Either way the
 * user must still exist in the organization with the session version the token or session carries; its
 * role is read then, so a new role or a removal applies to the next request. `headers` are the request's.
 */
export async function resolveDashboardPrincipal(token: string | null, headers: Pick<Headers, "get">) {
  if (!token) {
    const user = await signedInUser(headers);
    return user && { organizationId: user.organizationId, userId: user.userId, role: user.role };
  }
  if (!looksLikeJwt(token)) return null;
  const claims = await verifyUserToken(token);
  if (!claims) return null;
  const subject = { userId: claims.sub, organizationId: claims.org, sessionVersion: claims.sv };
  const role = await currentSessionRole(subject);
  return role ? { organizationId: subject.organizationId, userId: subject.userId, role } : null;
}
