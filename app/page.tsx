import Link from "next/link";

export default function Home() {
  return (
    <main className="mx-auto max-w-2xl p-8">
      <h1 className="text-2xl font-semibold">Ticketing analytics</h1>
      <p className="mt-2 text-slate-600">Orders, events, venues and signed webhooks for your organization.</p>
      <ul className="mt-6 list-disc pl-6">
        <li>
          <Link className="text-blue-700 underline" href="/api/health">
            Health
          </Link>
        </li>
      </ul>
    </main>
  );
}
