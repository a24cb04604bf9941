import { sql } from "drizzle-orm";
import { customType, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, updatedAt, uuidV7 } from "./columns";
import { projectIdColumn } from "./project-column";

export type ContentFormat = "html" | "mjml";
export type VersionKind = "template" | "layout" | "snippet";

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/**
 * A wrapper around e-mail templates' html: `{{ content }}` marks where the template goes. Its body is
 * composed with each template's html (and, for MJML, compiled) when either is saved (template_builds).
 */
export const layouts = pgTable(
  "layouts",
  {
    projectId: projectIdColumn(),
    id: uuidV7().notNull(),
    name: text().notNull(),
    format: text().$type<ContentFormat>().notNull().default("html"),
    body: text().notNull(),
    /** The current version (authoring_versions). */
    versionId: uuid(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    uniqueIndex("layouts_name_uq").on(t.projectId, sql`lower(${t.name})`),
  ],
);

/** A Liquid fragment a template includes as `{% render 'name' %}`, found among its project's snippets only. */
export const snippets = pgTable(
  "snippets",
  {
    projectId: projectIdColumn(),
    id: uuidV7().notNull(),
    name: text().notNull(),
    body: text().notNull(),
    versionId: uuid(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.id] }), uniqueIndex("snippets_name_uq").on(t.projectId, t.name)],
);

/**
 * Every save of a template, layout or snippet: an immutable copy of what was saved (`content`, the
 * fields of its kind), numbered from 1 per owner. A broadcast renders the versions pinned at its start.
 */
export const authoringVersions = pgTable(
  "authoring_versions",
  {
    projectId: projectIdColumn(),
    id: uuidV7().notNull(),
    kind: text().$type<VersionKind>().notNull(),
    ownerId: uuid().notNull(),
    number: integer().notNull(),
    content: jsonb().$type<Record<string, unknown>>().notNull(),
    /** Who saved it: `admin:<id>`, `key:<id>` or `system`. */
    actor: text(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    uniqueIndex("authoring_versions_number_uq").on(t.projectId, t.kind, t.ownerId, t.number),
  ],
);

/**
 * A template version's html as it is rendered: composed with its layout's version and compiled (MJML)
 * or CSS-inlined (HTML) once, when either is saved; `locales` holds each locale's html likewise.
 * Rendering a message only runs Liquid over it.
 */
export const templateBuilds = pgTable(
  "template_builds",
  {
    projectId: projectIdColumn(),
    id: uuidV7().notNull(),
    templateVersionId: uuid().notNull(),
    layoutVersionId: uuid(),
    html: text().notNull(),
    locales: jsonb().$type<Record<string, string>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    index("template_builds_version_idx").on(t.projectId, t.templateVersionId),
  ],
);

/**
 * An image uploaded for templates, served publicly at `/d/<id>/<name>`. `contentType` is what its bytes
 * are (sniffed at upload), never what the uploader said; the bytes live in `data` or, when
 * DOCUMENTS_DIR is set, in a file named by the id there (`data` null).
 */
export const documents = pgTable(
  "documents",
  {
    projectId: projectIdColumn(),
    id: uuidV7().notNull(),
    name: text().notNull(),
    contentType: text().notNull(),
    size: integer().notNull(),
    sha256: text().notNull(),
    data: bytea(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    // The public door (/d/<id>/<name>) finds a document by its id alone; not unique, so the table stays
    // distributable by project_id like every end-user table (a UUIDv7 is unique in practice).
    index("documents_id_idx").on(t.id),
  ],
);

export type Layout = typeof layouts.$inferSelect;
export type Snippet = typeof snippets.$inferSelect;
export type AuthoringVersion = typeof authoringVersions.$inferSelect;
export type TemplateBuild = typeof templateBuilds.$inferSelect;
export type DocumentRow = typeof documents.$inferSelect;
