import { describe, expect, it } from "vitest";
import { dataObject, inspectJson, MAX_DATA_BYTES } from "./json-value";

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

describe("dataObject", () => {
  it("takes exactly 32 KiB serialized and refuses one byte more, with multi-byte characters and escapes", () => {
    // Each "é\n" is 5 bytes serialized (2 of UTF-8, 2 of escape, 1 more of UTF-8) for 2 string units.
    const base = { k: "é\n".repeat(6000), pad: "" };
    const at = { ...base, pad: "x".repeat(MAX_DATA_BYTES - bytes(base)) };
    expect(bytes(at)).toBe(MAX_DATA_BYTES);
    expect(dataObject().safeParse(at).success).toBe(true);
    const over = { ...at, pad: `${at.pad}x` };
    expect(bytes(over)).toBe(MAX_DATA_BYTES + 1);
    const r = dataObject("traits").safeParse(over);
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toBe("traits is over 32 KiB serialized");
  });

  it("names the path of a refused string, and of a refused key, deep inside", () => {
    const r = dataObject().safeParse({ a: [1, { b: "x\u0000" }] });
    expect(r.error!.issues.map((i) => [i.path, i.message])).toEqual([
      [["a", 1, "b"], "contains a NUL character or invalid Unicode"],
    ]);
    const k = dataObject().safeParse({ a: { "\ud800": 1 } });
    expect(k.error!.issues.map((i) => [i.path, i.message])).toEqual([
      [["a", "\ud800"], "key contains a NUL character or invalid Unicode"],
    ]);
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = { d: deep };
    expect(dataObject().safeParse(deep).error!.issues[0]!.message).toBe("nested deeper than 32 levels");
  });
});

describe("inspectJson's size bound", () => {
  it("is never below the serialized size", () => {
    const samples: unknown[] = [
      { n: -1.7976931348623157e308, m: 5e-324, l: 1e21, i: -123456789012345680000, z: 0, f: false, t: true, u: null },
      { s: '\u0001\u001f"\\\n\t', e: "😀😀", c: "日本語", empty: "", list: [[], {}, [null, [true]]] },
      ["\u0000".replace("\u0000", "\u0007").repeat(100), { "ké\u0001y": "v" }],
      { d: new Date(0), nested: { deeper: { deepest: "x".repeat(1000) } } },
    ];
    for (const v of samples) expect(inspectJson(v).bound).toBeGreaterThanOrEqual(bytes(v));
  });
});
