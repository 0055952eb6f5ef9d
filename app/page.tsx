import { redirect } from "next/navigation";
import { currentSession } from "@/lib/dashboard/session";

export default async function Home() {
  const session = await currentSession();
  redirect(session ? "/overview" : "/login");
}
