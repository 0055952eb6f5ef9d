const CLASS_COLOURS: Record<number, string> = {
  2: "bg-green-100 text-green-900",
  3: "bg-slate-100 text-slate-900",
  4: "bg-amber-100 text-amber-900",
  5: "bg-red-100 text-red-900",
};

/** An HTTP status, coloured by its class. */
export function StatusCode({ status }: { status: number }) {
  return (
    <span className={`rounded-full px-2 py-0.5 font-mono text-xs font-medium ${CLASS_COLOURS[Math.floor(status / 100)] ?? ""}`}>
      {status}
    </span>
  );
}
