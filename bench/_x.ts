import { z } from "zod";
import { identifierInput } from "../lib/identity/schemas";
import { newUsersBody } from "./bodies";
const bodies = Array.from({ length: 30 }, () => JSON.parse(newUsersBody("x")) as any[]);
const time = (name: string, f: (u: any) => unknown) => {
  let best = 1e9;
  for (let r = 0; r < 7; r++) { const t = performance.now(); for (const b of bodies) for (const u of b) f(u); best = Math.min(best, performance.now() - t); }
  console.log(name.padEnd(20), ((best / 30000) * 1000).toFixed(3), "µs/user");
};
const a1 = z.array(identifierInput);
const a2 = z.array(identifierInput).min(1).max(20);
const a3 = z.array(identifierInput).min(1).max(20).transform((l) => l);
const a4 = z.array(identifierInput).min(1).max(20).transform((l) => (l.length === 1 ? l : [...new Map(l.map((x) => [x.source + "\0" + x.external_id, x])).values()]));
time("array", (u) => a1.parse(u.identifier));
time("array min max", (u) => a2.parse(u.identifier));
time("+ identity transform", (u) => a3.parse(u.identifier));
time("+ fast transform", (u) => a4.parse(u.identifier));
time("item", (u) => identifierInput.parse(u.identifier[0]));
