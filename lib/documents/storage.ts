import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Where document bytes live: PostgreSQL (bytea, the default) or, with DOCUMENTS_DIR set, one file per
 * document named by its id (a UUID: nothing a user gives reaches the path).
 */
export const documentsDir = (): string | null => process.env.DOCUMENTS_DIR?.trim() || null;

const fileOf = (dir: string, id: string) => {
  if (!/^[0-9a-f-]{36}$/.test(id)) throw new Error("a document id is a UUID");
  return path.join(dir, id);
};

export async function writeDocumentFile(dir: string, id: string, bytes: Uint8Array): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(fileOf(dir, id), bytes, { flag: "wx" });
}

export const readDocumentFile = (dir: string, id: string) => readFile(fileOf(dir, id));

export const removeDocumentFile = (dir: string, id: string) => rm(fileOf(dir, id), { force: true });
