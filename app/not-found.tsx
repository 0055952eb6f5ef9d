import type { Metadata } from "next";
import { NotFoundNotice } from "./(dashboard)/_components/not-found-notice";

export const metadata: Metadata = { title: "Not found · Ticketing analytics" };

/** Addresses no route matches (a mistyped or malformed path): the dashboard's 404 page, outside its layout. */
export default function NotFound() {
  return (
    <main className="px-4 py-12">
      <NotFoundNotice />
    </main>
  );
}
