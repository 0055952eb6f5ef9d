import NextAuth from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { env } from "@/lib/env";
import { checkCredentials } from "./users";

declare module "next-auth" {
  interface User {
    organizationId?: string;
  }
  interface Session {
    organizationId: string;
    userId: string;
  }
}

const credentialsSchema = z.object({ email: z.string().trim().min(1).max(320), password: z.string().min(1).max(1000) });

/** Dashboard sign-in: e-mail and password from the users table, JWT sessions (no session table). */
export const { handlers, auth, signIn, signOut } = NextAuth({
  secret: env.AUTH_SECRET,
  trustHost: true,
  session: { strategy: "jwt", maxAge: 8 * 60 * 60 },
  pages: { signIn: "/login" },
  providers: [
    Credentials({
      credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
      authorize: async (raw) => {
        const parsed = credentialsSchema.safeParse(raw);
        if (!parsed.success) return null;
        const user = await checkCredentials(parsed.data.email, parsed.data.password);
        if (!user) return null;
        return { id: user.id, email: user.email, name: user.name ?? user.email, organizationId: user.organizationId };
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user?.organizationId) token.org = user.organizationId;
      return token;
    },
    session({ session, token }) {
      session.organizationId = String(token.org ?? "");
      session.userId = String(token.sub ?? "");
      return session;
    },
  },
});
