import type { ReactNode } from "react";

/** A message after an action: errors are alerts, successes a polite status. */
export function Banner({
  tone,
  children,
  className = "",
}: {
  tone: "error" | "success";
  children: ReactNode;
  className?: string;
}) {
  const style =
    tone === "error" ? "border-red-200 bg-red-50 text-red-800" : "border-emerald-200 bg-emerald-50 text-emerald-800";
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={`rounded-md border px-3 py-2 text-sm ${style} ${className}`}
    >
      {children}
    </div>
  );
}

export function ErrorBanner({ message, className = "" }: { message: string; className?: string }) {
  return (
    <Banner tone="error" className={className}>
      {message}
    </Banner>
  );
}

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="rounded-xl border border-dashed border-zinc-300 bg-white px-6 py-12 text-center">
      <p className="text-sm font-semibold text-zinc-900">{title}</p>
      {children && <div className="mx-auto mt-1 max-w-md text-sm text-zinc-500">{children}</div>}
      {action && <div className="mt-5">{action}</div>}
    </div>
  );
}

export function LoadingRows({ rows = 4, label = "Loading" }: { rows?: number; label?: string }) {
  return (
    <div role="status" aria-label={label} className="space-y-2">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="h-10 animate-pulse rounded-md bg-zinc-200/70" />
      ))}
    </div>
  );
}

export function Badge({
  children,
  tone = "zinc",
}: {
  children: ReactNode;
  tone?: "zinc" | "indigo" | "green" | "amber" | "red";
}) {
  const tones = {
    zinc: "bg-zinc-100 text-zinc-700 ring-zinc-200",
    indigo: "bg-indigo-50 text-indigo-700 ring-indigo-200",
    green: "bg-emerald-50 text-emerald-700 ring-emerald-200",
    amber: "bg-amber-50 text-amber-800 ring-amber-200",
    red: "bg-red-50 text-red-700 ring-red-200",
  };
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tones[tone]}`}
    >
      {children}
    </span>
  );
}

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-xl font-semibold tracking-tight text-zinc-900">{title}</h1>
        {description && <p className="mt-1 max-w-2xl text-sm text-zinc-500">{description}</p>}
      </div>
      {actions && <div className="flex gap-2">{actions}</div>}
    </div>
  );
}

export function Card({ children, className = "" }: { children: ReactNode; className?: string }) {
  return <div className={`rounded-xl border border-zinc-200 bg-white shadow-sm ${className}`}>{children}</div>;
}

/** A titled card: a landmark named by its title, an optional description and header action. */
export function Section({
  title,
  description,
  aside,
  children,
}: {
  title: string;
  description?: string;
  aside?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-label={title}>
      <Card>
        <div className="flex items-center justify-between gap-4 border-b border-zinc-100 px-5 py-3">
          <div>
            <h2 className="text-sm font-semibold text-zinc-900">{title}</h2>
            {description ? <p className="mt-0.5 text-sm text-zinc-500">{description}</p> : null}
          </div>
          {aside}
        </div>
        <div className="p-5">{children}</div>
      </Card>
    </section>
  );
}

/** A form control's look without a width; `inputClass` is the full-width version. */
export const controlClass =
  "rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 shadow-sm placeholder:text-zinc-400 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30";
export const inputClass = `${controlClass} block w-full`;

export const tableClass = "min-w-full divide-y divide-zinc-200 text-sm";
export const thClass = "px-4 py-2.5 text-left text-xs font-medium uppercase tracking-wide text-zinc-500";
export const tdClass = "px-4 py-3 text-zinc-700";

/** A console table's header row; `actions` adds the last, visually unlabelled column for row buttons. */
export function TableHead({ columns, actions = false }: { columns: string[]; actions?: boolean }) {
  return (
    <thead className="bg-zinc-50">
      <tr>
        {columns.map((c) => (
          <th key={c} className={thClass}>
            {c}
          </th>
        ))}
        {actions && (
          <th className={thClass}>
            <span className="sr-only">Actions</span>
          </th>
        )}
      </tr>
    </thead>
  );
}

/**
 * A console table in its card: the header row (see TableHead) over the rows given as children. `className`
 * is the card's (`overflow-x-auto` for a table wider than a phone).
 */
export function TableCard({
  columns,
  actions = false,
  label,
  className = "overflow-hidden",
  children,
}: {
  columns: string[];
  actions?: boolean;
  label?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Card className={className}>
      <table className={tableClass} aria-label={label}>
        <TableHead columns={columns} actions={actions} />
        <tbody className="divide-y divide-zinc-100">{children}</tbody>
      </table>
    </Card>
  );
}
