import { z } from "zod";
import { NotFound } from "./errors";

/** A path id that is not a UUID cannot name a record: 404, same as an unknown one. */
export function readRecordId(id: string, what: string): string {
  if (!z.uuid().safeParse(id).success) throw new NotFound(`No ${what} with this id in this project.`);
  return id;
}
