/** How deep any JSON body may nest. Data objects allow 32 levels; nothing in the API needs more than this. */
export const MAX_BODY_DEPTH = 64;

export interface ShapeViolation {
  path: (string | number)[];
  message: string;
}

/** The children of a node, each with the path segments that lead to it. */
export type Children = (value: unknown) => { path: (string | number)[]; value: unknown }[];

/** Plain JSON: every array element and object member is one level down. */
export const jsonChildren: Children = (v) => {
  if (Array.isArray(v)) return v.map((value, i) => ({ path: [i], value }));
  if (v && typeof v === "object") return Object.entries(v).map(([k, value]) => ({ path: [k], value }));
  return [];
};

/**
 * Walks a parsed JSON value without recursion and reports the first place it nests deeper than
 * `maxDepth` or passes `maxNodes` nodes. Runs before any zod schema: a recursive schema (list rules)
 * given thousands of levels used to overflow the stack and answer 500.
 */
export function findShapeViolation(
  value: unknown,
  limits: { maxDepth: number; maxNodes?: number; children?: Children },
): ShapeViolation | null {
  const children = limits.children ?? jsonChildren;
  const stack: { value: unknown; path: (string | number)[]; depth: number }[] = [{ value, path: [], depth: 0 }];
  let nodes = 0;
  while (stack.length) {
    const node = stack.pop()!;
    if (limits.maxNodes !== undefined && ++nodes > limits.maxNodes)
      return { path: node.path, message: `more than ${limits.maxNodes} nodes` };
    const kids = children(node.value);
    if (!kids.length) continue;
    if (node.depth >= limits.maxDepth)
      return { path: node.path, message: `nested deeper than ${limits.maxDepth} levels` };
    for (let i = kids.length - 1; i >= 0; i--)
      stack.push({ value: kids[i]!.value, path: [...node.path, ...kids[i]!.path], depth: node.depth + 1 });
  }
  return null;
}

/**
 * The deepest bracket nesting of JSON text, in one pass over the bytes (brackets inside strings do not
 * count). Stops early past 1,000 levels: the caller only compares it with a small limit.
 */
export function nestingDepth(bytes: Uint8Array): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === 0x5c)
        i++; // backslash: skip the escaped byte
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x5b || b === 0x7b) {
      if (++depth > max) max = depth;
      if (max > 1000) return max;
    } else if (b === 0x5d || b === 0x7d) depth--;
  }
  return max;
}

/**
 * The bracket depth and the number of JSON values of a JSON text, in one pass over its bytes (brackets and
 * commas inside strings do not count), so a row can be refused before JSON.parse turns it into objects.
 * Every value but the first is preceded by a `,` or opens after a `[`/`:`: counting `,`, `[`, `:` outside
 * strings, plus one, bounds the values from above. Stops counting once either limit is passed.
 */
export function textShape(bytes: Uint8Array, limits: { maxDepth: number; maxValues: number }) {
  let depth = 0;
  let maxDepth = 0;
  let values = 1;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === 0x5c) i++;
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x5b || b === 0x7b) {
      if (++depth > maxDepth) maxDepth = depth;
      if (b === 0x5b) values++;
    } else if (b === 0x5d || b === 0x7d) depth--;
    else if (b === 0x2c || b === 0x3a) values++;
    if (maxDepth > limits.maxDepth || values > limits.maxValues) break;
  }
  return { depth: maxDepth, values };
}
