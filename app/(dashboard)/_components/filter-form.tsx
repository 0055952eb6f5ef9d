import Link from "next/link";
import type { ReactNode } from "react";
import type { FilterParams } from "@/lib/dashboard/paging";
import { buttonClasses } from "./button-classes";
import { inputClasses } from "./input-classes";
import { QueryForm } from "./query-form";

/**
 * The filters of a server-filtered list as a GET form, so the filters land in the URL (only those with a
 * value) and work without JavaScript. `carried` (sort, page size) goes along as hidden fields; the page starts over.
 */
export function FilterForm({
  action,
  carried,
  clearHref,
  filtered,
  children,
}: {
  action: string;
  carried: FilterParams;
  /** The list without filters, sort and page size kept. */
  clearHref: string;
  filtered: boolean;
  children: ReactNode;
}) {
  return (
    <QueryForm action={action} className="flex flex-wrap items-end gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      {children}
      {Object.entries(carried).map(([name, value]) => value !== undefined && <input key={name} type="hidden" name={name} value={value} />)}
      <div className="flex gap-2">
        <button type="submit" className={buttonClasses.primary}>
          Filter
        </button>
        {filtered && (
          <Link href={clearHref} className={buttonClasses.secondary}>
            Clear
          </Link>
        )}
      </div>
    </QueryForm>
  );
}

/** One filter of a FilterForm: a labelled select whose empty choice means "no filter". */
export function SelectFilter({
  id,
  label,
  name,
  value,
  anyLabel,
  options,
  className = "w-full sm:w-48",
}: {
  id: string;
  label: string;
  name: string;
  value: string | undefined;
  anyLabel: string;
  options: readonly { value: string; label: string }[];
  className?: string;
}) {
  return (
    <LabelledFilter id={id} label={label} className={className}>
      <select id={id} name={name} defaultValue={value ?? ""} className={inputClasses()}>
        <option value="">{anyLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </LabelledFilter>
  );
}

/** One filter of a FilterForm: a labelled input whose empty value means "no filter". */
export function InputFilter({
  id,
  label,
  name,
  value,
  type = "text",
  placeholder,
  className = "w-full sm:w-48",
}: {
  id: string;
  label: string;
  name: string;
  value: string | undefined;
  type?: "text" | "search" | "date" | "datetime-local";
  placeholder?: string;
  className?: string;
}) {
  return (
    <LabelledFilter id={id} label={label} className={className}>
      <input id={id} name={name} type={type} defaultValue={value ?? ""} placeholder={placeholder} className={inputClasses()} />
    </LabelledFilter>
  );
}

/** A filter's label above its control. */
function LabelledFilter({ id, label, className, children }: { id: string; label: string; className: string; children: ReactNode }) {
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
    </div>
  );
}

/** One filter of a FilterForm: checkboxes of which any number may be ticked; none ticked means "no filter". */
export function CheckboxFilter({
  legend,
  name,
  values,
  options,
}: {
  legend: string;
  name: string;
  values: readonly string[] | undefined;
  options: readonly { value: string; label: string }[];
}) {
  return (
    <fieldset className="w-full">
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      <div className="mt-1 flex flex-wrap gap-x-4 gap-y-2">
        {options.map((option) => (
          <label key={option.value} className="flex items-center gap-2 text-sm">
            <input type="checkbox" name={name} value={option.value} defaultChecked={values?.includes(option.value)} className="size-4" />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
