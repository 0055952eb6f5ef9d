import type { FieldRow } from "@/lib/openapi/schema-fields";

export const anchor = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-");

/** A JSON example. It scrolls sideways on narrow screens, so it takes keyboard focus to scroll without a pointer. */
export function JsonExample({ label, value }: { label: string; value: unknown }) {
  return (
    <div>
      <p className="pb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase">{label}</p>
      <pre
        tabIndex={0}
        className="overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100 focus:outline-2 focus:outline-offset-2 focus:outline-sky-600"
      >
        {JSON.stringify(value, null, 2)}
      </pre>
    </div>
  );
}

export function FieldTable({ caption, rows }: { caption: string; rows: FieldRow[] }) {
  if (rows.length === 0) return null;
  return (
    // Wide tables scroll sideways on narrow screens: focusable, so the keyboard can scroll them too.
    <div tabIndex={0} className="overflow-x-auto focus:outline-2 focus:outline-offset-2 focus:outline-sky-600">
      <table className="w-full text-left text-sm">
        <caption className="pb-1 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">{caption}</caption>
        <thead className="border-b border-slate-200 text-slate-600">
          <tr>
            <th scope="col" className="py-1 pr-4 font-medium">Name</th>
            <th scope="col" className="py-1 pr-4 font-medium">Type</th>
            <th scope="col" className="py-1 pr-4 font-medium">Required</th>
            <th scope="col" className="py-1 font-medium">Notes</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.name} className="border-b border-slate-100 align-top">
              <td className="py-1 pr-4 font-mono text-xs break-all">{row.name}</td>
              <td className="py-1 pr-4 font-mono text-xs">{row.type}</td>
              <td className="py-1 pr-4">{row.required ? "yes" : "no"}</td>
              <td className="py-1 text-slate-700">{row.notes}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
