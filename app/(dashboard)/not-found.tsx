import type { Metadata } from "next";
import { NotFoundNotice } from "./_components/not-found-notice";

export const metadata: Metadata = { title: "Not found · Ticketing analytics" };

export default function DashboardNotFound() {
  return <NotFoundNotice />;
}
