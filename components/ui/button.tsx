import { forwardRef, type ButtonHTMLAttributes, type ComponentProps } from "react";

type Variant = "primary" | "secondary" | "danger" | "ghost";
const styles: Record<Variant, string> = {
  primary: "bg-indigo-600 text-white shadow-sm hover:bg-indigo-500 disabled:bg-indigo-300",
  secondary: "border border-zinc-300 bg-white text-zinc-800 shadow-sm hover:bg-zinc-50 disabled:text-zinc-400",
  danger: "bg-red-600 text-white shadow-sm hover:bg-red-500 disabled:bg-red-300",
  ghost: "text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 disabled:text-zinc-300",
};

export const buttonClass = (variant: Variant = "primary", size: "sm" | "md" = "md") =>
  `inline-flex items-center justify-center gap-1.5 rounded-md font-medium transition-colors focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 disabled:cursor-not-allowed ${
    size === "sm" ? "px-2.5 py-1 text-xs" : "px-3.5 py-2 text-sm"
  } ${styles[variant]}`;

export const Button = forwardRef<
  HTMLButtonElement,
  ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; size?: "sm" | "md" }
>(function Button({ variant = "primary", size = "md", className = "", type = "button", ...props }, ref) {
  return <button ref={ref} type={type} className={`${buttonClass(variant, size)} ${className}`} {...props} />;
});

/**
 * A small quiet button that acts on one row (of a table, a list, a rule): its `aria-label` says which row,
 * since its text alone ("Remove", "Revoke") does not.
 */
export function RowAction(props: Omit<ComponentProps<typeof Button>, "variant" | "size"> & { "aria-label": string }) {
  return <Button variant="ghost" size="sm" {...props} />;
}
