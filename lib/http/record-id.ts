import { z } from "zod";
import { NotFound } from "./errors";

/** A path id that is not a UUID cannot name a record: 404, same as an unknown one. */
export function readRecordId(id: string, what: string): string {
  if (!z.uuid().safeParse(id).success) throw new NotFound(`No ${what} with this id in this project.`);
  return id;
}

/** A version number in a path: a positive integer, else 404 like an unknown one. */
export function readVersionNumber(n: string): number {
  if (!/^[1-9][0-9]{0,8}$/.test(n)) throw new NotFound("No such version.");
  return Number(n);
}
