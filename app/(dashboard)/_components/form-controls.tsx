"use client";

import { useId, type InputHTMLAttributes, type ReactNode } from "react";
import { useFormStatus } from "react-dom";
import { buttonClasses } from "./button-classes";
import { inputClasses } from "./input-classes";

export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-700">
      {message}
    </p>
  );
}

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id"> & {
  label: string;
  name: string;
  error?: string;
  hint?: string;
};

/** A labelled input whose error is announced with it (aria-describedby) and shown right below it. */
export function TextField({ label, name, error, hint, className, ...input }: TextFieldProps) {
  const id = useId();
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
      <input
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={inputClasses(Boolean(error))}
        {...input}
      />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** A form's outcome above its fields, announced: the saved notice, or a refusal that belongs to no one field. */
export function FormOutcome({ saved, error }: { saved: string | undefined; error: string | undefined }) {
  return (
    <div role="status">
      {saved && <p className="rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">{saved}</p>}
      {error && <p className="text-sm text-red-700">{error}</p>}
    </div>
  );
}

interface UtcTimeField {
  label: string;
  name: string;
  hint: string;
  value: string | undefined;
}

/** A start and an end, each typed as a date and time in UTC. */
export function UtcWindowFields({ start, end, errors }: { start: UtcTimeField; end: UtcTimeField; errors: Record<string, string | undefined> }) {
  return [start, end].map((field) => (
    <TextField
      key={field.name}
      label={field.label}
      name={field.name}
      type="datetime-local"
      hint={field.hint}
      defaultValue={field.value}
      error={errors[field.name]}
      required
    />
  ));
}

/** A submit button that says it is busy while its form's action runs. */
export function SubmitButton({
  children,
  pendingLabel,
  variant = "primary",
  className = "",
  disabled = false,
}: {
  children: ReactNode;
  pendingLabel: string;
  variant?: keyof typeof buttonClasses;
  className?: string;
  disabled?: boolean;
}) {
  const { pending } = useFormStatus();
  return (
    <button
      type="submit"
      disabled={pending || disabled}
      aria-disabled={pending || disabled}
      className={`${buttonClasses[variant]} ${className}`}
    >
      {pending ? pendingLabel : children}
    </button>
  );
}
