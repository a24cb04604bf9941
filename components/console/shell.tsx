"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { roleAtLeast, type Role } from "@/lib/access/roles";
import type { MyProject } from "@/lib/projects/schemas";
import { NAV_ITEMS, NAV_SECTIONS } from "./nav-items";
import { ProjectSwitcher } from "./project-switcher";

const linkClass = (active: boolean) =>
  `flex items-center justify-between rounded-md px-2.5 py-0.5 text-sm transition-colors focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 ${
    active
      ? "bg-white font-medium text-zinc-900 shadow-sm ring-1 ring-zinc-200"
      : "text-zinc-600 hover:bg-zinc-200/60 hover:text-zinc-900"
  }`;

/** The console's mark and name. */
function Mark() {
  return (
    <>
      <span className="grid h-7 w-7 place-items-center rounded-md bg-indigo-600 text-xs font-bold text-white">R</span>
      <span className="font-semibold tracking-tight">Relay</span>
    </>
  );
}

type NavProps = {
  email: string;
  projects: MyProject[];
  inviteCount: number;
  signOut: () => Promise<void>;
  pathname: string;
  project: { id: string; role: Role } | undefined;
};

/** The project switcher, the project's pages, and the account: the sidebar's, and the narrow menu's. */
function Navigation({ email, projects, inviteCount, signOut, pathname, project }: NavProps) {
  return (
    <>
      {projects.length > 0 && <ProjectSwitcher projects={projects} currentId={project?.id} />}
      <nav aria-label="Project" className="mt-1 min-h-0 flex-1 space-y-1 overflow-y-auto">
        {project &&
          NAV_SECTIONS.map((section) => {
            const items = NAV_ITEMS.filter(
              (i) => i.section === section && (!i.minRole || roleAtLeast(project.role, i.minRole)),
            );
            if (!items.length) return null;
            return (
              <div key={section}>
                <p className="px-2.5 text-[11px] font-medium uppercase leading-4 tracking-wide text-zinc-400">
                  {section}
                </p>
                <ul>
                  {items.map((item) => {
                    const href = `/projects/${project.id}${item.path}`;
                    // The overview is the project's root: active only on itself, not on every page under it.
                    const active = pathname === href || (item.path !== "" && pathname.startsWith(`${href}/`));
                    return (
                      <li key={item.path}>
                        <Link href={href} className={linkClass(active)} aria-current={active ? "page" : undefined}>
                          {item.label}
                        </Link>
                      </li>
                    );
                  })}
                </ul>
              </div>
            );
          })}
      </nav>
      <div className="border-t border-zinc-200 pt-2">
        <Link href="/projects" className={linkClass(pathname === "/projects")}>
          All projects
        </Link>
        <Link href="/invites" className={linkClass(pathname === "/invites")}>
          My invites
          {inviteCount > 0 && (
            <span className="rounded-full bg-indigo-600 px-1.5 text-xs font-medium text-white">{inviteCount}</span>
          )}
        </Link>
        <div className="px-2.5 pt-2">
          <p className="truncate text-xs text-zinc-500" title={email}>
            {email}
          </p>
          <form action={signOut}>
            <button
              type="submit"
              className="mt-1 text-xs font-medium text-zinc-600 hover:text-zinc-900 focus:outline-none focus-visible:underline"
            >
              Sign out
            </button>
          </form>
        </div>
      </div>
    </>
  );
}

/**
 * The console frame: sidebar (logo, project switcher, project navigation, account) and the page; below
 * 768 px the sidebar's navigation is a menu above the page, so a phone's width is the page's.
 */
export function Shell({
  email,
  projects,
  inviteCount,
  signOut,
  children,
}: {
  email: string;
  projects: MyProject[];
  inviteCount: number;
  signOut: () => Promise<void>;
  children: ReactNode;
}) {
  const pathname = usePathname();
  const currentId = /^\/projects\/([0-9a-f-]{36})/.exec(pathname)?.[1];
  const project: { id: string; role: Role } | undefined = projects.find((p) => p.id === currentId);
  const nav = { email, projects, inviteCount, signOut, pathname, project };
  return (
    <div className="flex min-h-screen flex-col md:flex-row">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      {/* The aside stretches with the page (its background and border reach the bottom of the longest page);
          its content sticks to the window, so navigation stays in view while the page scrolls. Narrow
          windows (below 768 px) get the same navigation as a menu above the page instead. */}
      <aside className="hidden w-60 shrink-0 border-r border-zinc-200 bg-zinc-100/70 md:block">
        <div className="sticky top-0 flex h-screen flex-col px-3 py-4">
          <Link href="/projects" className="mb-1 flex items-center gap-2 px-1">
            <Mark />
          </Link>
          <Navigation {...nav} />
        </div>
      </aside>
      {/* Closed again on every navigation (a new key per page). */}
      <details key={pathname} className="border-b border-zinc-200 bg-zinc-100/70 md:hidden">
        <summary className="flex cursor-pointer list-none items-center justify-between px-4 py-3 focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-500">
          <span className="flex items-center gap-2">
            <Mark />
          </span>
          <span className="text-sm font-medium text-zinc-700">Menu</span>
        </summary>
        <div className="flex max-h-[75vh] flex-col px-3 pb-3">
          <Navigation {...nav} />
        </div>
      </details>
      <main id="main" className="min-w-0 flex-1 px-4 py-6 md:px-8 md:py-8">
        <div className="mx-auto max-w-6xl">{children}</div>
      </main>
    </div>
  );
}
