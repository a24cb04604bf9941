import { snippetRefs } from "./formats";

/** How deep `{% render %}` may nest: a template's snippet is 1, a snippet it renders 2, … */
export const MAX_SNIPPET_DEPTH = 5;

/**
 * What is wrong with the snippets `sources` reach through `bodies` (the project's snippets by name),
 * or null: a name no snippet has, a name given by a variable, a cycle (named as its path), a nesting
 * deeper than MAX_SNIPPET_DEPTH. Checked at every save, so a render never meets any of them.
 */
export function snippetProblem(bodies: Map<string, string>, sources: string[]): string | null {
  const roots = new Set<string>();
  for (const s of sources) {
    const refs = snippetRefs(s);
    if (refs.dynamic.length) return `${refs.dynamic[0]} names its snippet by a variable: name it in quotes`;
    if (refs.others.length)
      return `${refs.others[0]} is not allowed: render snippets as {% render 'name' %} (a layout is set on the template)`;
    for (const n of refs.names) roots.add(n);
  }
  const walk = (name: string, path: string[]): string | null => {
    if (path.includes(name))
      return `the snippets render each other in a cycle: ${[...path.slice(path.indexOf(name)), name].join(" → ")}`;
    const body = bodies.get(name);
    if (body === undefined)
      return `no snippet named "${name}" in this project${path.length ? ` (rendered by "${path.at(-1)}")` : ""}`;
    const next = [...path, name];
    if (next.length > MAX_SNIPPET_DEPTH) return `snippets nest deeper than ${MAX_SNIPPET_DEPTH}: ${next.join(" → ")}`;
    const refs = snippetRefs(body);
    if (refs.dynamic.length) return `"${name}": ${refs.dynamic[0]} names its snippet by a variable`;
    if (refs.others.length) return `"${name}": ${refs.others[0]} is not allowed in a snippet`;
    for (const n of refs.names) {
      const problem = walk(n, next);
      if (problem) return problem;
    }
    return null;
  };
  for (const r of roots) {
    const problem = walk(r, []);
    if (problem) return problem;
  }
  return null;
}
