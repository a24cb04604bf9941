/** The fragment id of an operation on /docs/api (`#post-api-client-projects-projectid-users`), shared with its e2e test. */
export function operationAnchor(method: string, path: string): string {
  return `${method}-${path}`
    .replace(/[^a-zA-Z0-9]+/g, "-")
    .replace(/-+$/, "")
    .toLowerCase();
}
