import { z } from "zod";
import { documentOutput, listDocumentsQuery, uploadDocumentForm } from "@/lib/documents/schemas";
import {
  createLayoutBody,
  createSnippetBody,
  layoutOutput,
  listAuthoringQuery,
  snippetOutput,
  templateOutput,
  updateLayoutBody,
  updateSnippetBody,
  versionOutput,
} from "@/lib/templates/schemas";
import { jsonBody, listOf, projectParams, registerPath, registry } from "./registry";
import { errorResponse, found, gone, jsonResponse, ok } from "./responses";

/** Layouts, snippets, versions and documents: the paths templates are authored with. */
const root = "/api/admin/projects/{projectID}";
const tags = ["Admin: authoring"];
const idParams = projectParams.extend({ id: z.uuid() });
const versionParams = idParams.extend({ n: z.number().int().min(1).meta({ description: "The version's number." }) });

const kinds = [
  {
    kind: "layout",
    output: layoutOutput,
    create: createLayoutBody,
    update: updateLayoutBody,
    saved:
      "It must hold exactly one `{{ content }}` and compile alone; every template it wraps (naming it, or naming none while it is the project's default) is built again with it, and the save is refused (400) naming a template that would break.",
  },
  {
    kind: "snippet",
    output: snippetOutput,
    create: createSnippetBody,
    update: updateSnippetBody,
    saved:
      "Rendered as `{% render 'name' %}`, found among the project's snippets only. Refused (400) when it would make a cycle (named as its path), nest deeper than 5, or leave a template, layout or snippet rendering a name that no longer exists (named).",
  },
] as const;

for (const k of kinds) {
  const base = `${root}/${k.kind}s`;
  const missing = `No such ${k.kind}.`;
  registerPath({
    method: "get",
    path: base,
    permission: "messages.read",
    tags,
    summary: `List ${k.kind}s`,
    request: { params: projectParams, query: listAuthoringQuery },
    responses: ok(listOf(k.output, `${k.kind === "layout" ? "Layout" : "Snippet"}List`), `A page of ${k.kind}s.`),
  });
  registerPath({
    method: "post",
    path: base,
    permission: "templates.write",
    tags,
    summary: `Create a ${k.kind} (its version 1)`,
    description: k.saved,
    request: { params: projectParams, body: jsonBody(k.create) },
    responses: { 201: jsonResponse(k.output, "Created."), 409: errorResponse("The name is taken.") },
  });
  registerPath({
    method: "get",
    path: `${base}/{id}`,
    permission: "messages.read",
    tags,
    summary: `Read a ${k.kind}`,
    request: { params: idParams },
    responses: found(k.output, `The ${k.kind}.`, missing),
  });
  registerPath({
    method: "patch",
    path: `${base}/{id}`,
    permission: "templates.write",
    tags,
    summary: `Change a ${k.kind} (a new version)`,
    description: k.saved,
    request: { params: idParams, body: jsonBody(k.update) },
    responses: found(k.output, `The ${k.kind}.`, missing),
  });
  registerPath({
    method: "delete",
    path: `${base}/{id}`,
    permission: "templates.write",
    tags,
    summary: `Delete a ${k.kind}`,
    description:
      k.kind === "layout"
        ? "Refused (422) while a template names it or it is the project's default."
        : "Refused (400) while a template, layout or snippet renders it, naming it.",
    request: { params: idParams },
    responses: {
      ...gone("Deleted; its versions stay for the broadcasts that pinned them.", missing),
      422: errorResponse("In use."),
    },
  });
}

for (const kind of ["template", "layout", "snippet"] as const) {
  const base = `${root}/${kind}s/{id}/versions`;
  const output = kind === "template" ? templateOutput : kind === "layout" ? layoutOutput : snippetOutput;
  registerPath({
    method: "get",
    path: base,
    permission: "messages.read",
    tags,
    summary: `List a ${kind}'s versions, newest first`,
    description: "Every save is a version, numbered from 1; `content` is what was saved.",
    request: { params: idParams, query: listAuthoringQuery },
    responses: found(listOf(versionOutput, `${kind}VersionList`), "A page of versions.", `No such ${kind}.`),
  });
  registerPath({
    method: "post",
    path: `${base}/{n}/restore`,
    permission: "templates.write",
    tags,
    summary: `Restore a ${kind}'s version (as a new version)`,
    description:
      kind === "template"
        ? "Saves the version's parts, format and layout again (name, group and tags stay), checked and built like any save."
        : "Saves the version's content again, checked like any save.",
    request: { params: versionParams },
    responses: found(output, `The ${kind}, at its new version.`, "No such version."),
  });
}

{
  const base = `${root}/documents`;
  registerPath({
    method: "get",
    path: base,
    permission: "messages.read",
    tags,
    summary: "List documents (images for templates), newest first",
    request: { params: projectParams, query: listDocumentsQuery },
    responses: ok(listOf(documentOutput, "DocumentList"), "A page of documents."),
  });
  registerPath({
    method: "post",
    path: base,
    permission: "documents.write",
    tags,
    summary: "Upload a document",
    description:
      "`multipart/form-data` with one `file`: a PNG, JPEG, GIF or WebP image of at most 5 MB. Its type is read from its bytes, never from its name or the part's content-type; anything else (SVG included) is a 415. Refused (422) past the project's `document_quota_bytes`.",
    request: {
      params: projectParams,
      body: { required: true, content: { "multipart/form-data": { schema: uploadDocumentForm } } },
    },
    responses: {
      201: jsonResponse(documentOutput, "Stored; `url` serves it."),
      413: errorResponse("Over 5 MB."),
      415: errorResponse("Not multipart, or the file is not a PNG, JPEG, GIF or WebP image."),
      422: errorResponse("The project's quota would be passed."),
    },
  });
  registerPath({
    method: "delete",
    path: `${base}/{id}`,
    permission: "documents.write",
    tags,
    summary: "Delete a document",
    request: { params: idParams },
    responses: gone("Deleted: its URL answers 404.", "No such document."),
  });
}

registry.registerPath({
  method: "get",
  path: "/d/{id}/{name}",
  tags: ["Documents"],
  summary: "A document, publicly",
  description:
    "The bytes with the content-type sniffed at upload, `X-Content-Type-Options: nosniff`, `Content-Security-Policy: default-src 'none'; sandbox`, and `Cache-Control: public, max-age=31536000, immutable` (a new upload is a new URL). Rate-limited per caller address like every public door.",
  request: { params: z.object({ id: z.uuid(), name: z.string() }) },
  responses: {
    200: { description: "The image.", content: { "image/*": { schema: z.string().meta({ format: "binary" }) } } },
    404: { description: "No document with this id under this name." },
  },
});
