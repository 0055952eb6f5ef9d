// Kept out of the "use client" modules, like button-classes.ts, so server components can use it too.
/** The one style of the dashboard's text inputs, selects and text areas; red-bordered when the field has an error. */
export function inputClasses(invalid = false): string {
  return `mt-1 block w-full rounded-md border bg-white px-3 py-2 text-sm shadow-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 ${
    invalid ? "border-red-600" : "border-slate-300"
  }`;
}
