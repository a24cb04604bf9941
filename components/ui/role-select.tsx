import { ROLES, roleAtLeast, type Role } from "@/lib/access/roles";
import { inputClass } from "./states";

export const ROLE_HELP: Record<Role, string> = {
  admin: "Everything, plus members, keys and destructive operations",
  editor: "Schedules, lists, journeys and other configuration",
  client: "Write-only ingestion of users, events and organizations",
  support: "Read-only access to the project's data",
};

export function RoleHelp({ role }: { role: Role }) {
  return <p className="mt-1 text-xs text-zinc-500">{ROLE_HELP[role]}.</p>;
}

/** Roles at or below `max`, highest first: nobody can hand out more than they hold. */
export function RoleSelect({
  id,
  value,
  onChange,
  max,
  label,
}: {
  id: string;
  value: Role;
  onChange: (r: Role) => void;
  max: Role;
  label?: string;
}) {
  return (
    <select
      id={id}
      aria-label={label}
      value={value}
      onChange={(e) => onChange(e.target.value as Role)}
      className={inputClass}
    >
      {[...ROLES]
        .reverse()
        .filter((r) => roleAtLeast(max, r))
        .map((r) => (
          <option key={r} value={r}>
            {r[0]!.toUpperCase() + r.slice(1)}
          </option>
        ))}
    </select>
  );
}
