/** The image types a document may be, each known by its first bytes. SVG (a script carrier) is none of them. */
export type ImageType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

const starts = (b: Uint8Array, sig: number[], at = 0) => sig.every((x, i) => b[at + i] === x);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/**
 * What the bytes are, read from their magic numbers alone: the name and the uploader's content-type are
 * never consulted, so an HTML page named `.png` is refused and a PNG named `.jpg` is served as a PNG.
 */
export function sniffImage(bytes: Uint8Array): ImageType | null {
  if (starts(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (starts(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (starts(bytes, ascii("GIF87a")) || starts(bytes, ascii("GIF89a"))) return "image/gif";
  if (starts(bytes, ascii("RIFF")) && starts(bytes, ascii("WEBP"), 8)) return "image/webp";
  return null;
}
