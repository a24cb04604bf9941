import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, createTestProject, type TestProject } from "@/scripts/test/helpers";

let p: TestProject;
beforeAll(async () => {
  p = await createTestProject("hostile-input");
});

const CONTROL_TOKENS = [
  "%0A%0D%09",
  "abc%0D%0ALocation:%20https://evil.example",
  "%00",
  "%7F%1B",
  "%E2%80%A8",
  "..%2F..%2Fadmin",
];

describe("tokens with control characters on the public doors (issue 9.14)", () => {
  it("never reach a header raw and never answer 5xx", async () => {
    for (const t of CONTROL_TOKENS) {
      for (const [method, path, body] of [
        ["POST", `/api/preferences/${t}`, "all=unsubscribed"],
        ["GET", `/u/${t}`, undefined],
        ["POST", `/u/${t}`, "from=page"],
        ["POST", `/u/${t}`, "List-Unsubscribe=One-Click"],
        ["GET", `/l/${t}`, undefined],
        ["HEAD", `/l/${t}`, undefined],
      ] as const) {
        const res = await fetch(baseUrl + path, {
          method,
          redirect: "manual",
          headers: body ? { "content-type": "application/x-www-form-urlencoded" } : {},
          body,
        });
        await res.arrayBuffer();
        expect(res.status, `${method} ${path}`).toBeLessThan(500);
        const location = res.headers.get("location") ?? "";
        expect(location, `${method} ${path}`).not.toMatch(/[\u0000-\u001f\u007f\u2028]/);
        expect(location.toLowerCase(), `${method} ${path}`).not.toContain("evil.example/");
      }
    }
  });
});

describe("rule trees are bounded before parsing (issue 9.13)", () => {
  const leaf = { property: { path: "email", op: "exists" } };
  const nest = (levels: number): unknown => (levels === 0 ? leaf : { all: [nest(levels - 1)] });

  it("a list's rules 11 levels deep are a 400 naming the place; 2,000 levels a 400, not a 500", async () => {
    const eleven = await api("POST", p.admin("/lists"), {
      key: p.keys.editor,
      body: { name: "deep", kind: "dynamic", rules: nest(11) },
    });
    expect(eleven.status).toBe(400);
    expect(eleven.body.errors[0].path).toBe(`rules${".all[0]".repeat(10)}`);
    expect(eleven.body.errors[0].message).toContain("at most 10 levels");
    const deep = await api("POST", p.admin("/lists"), {
      key: p.keys.editor,
      body: { name: "deeper", kind: "dynamic", rules: nest(2000) },
    });
    expect(deep.status).toBe(400);
    const wide = await api("POST", p.admin("/lists"), {
      key: p.keys.editor,
      body: { name: "wide", kind: "dynamic", rules: { any: Array.from({ length: 201 }, () => leaf) } },
    });
    expect(wide.status).toBe(400);
    expect(wide.body.errors[0].message).toContain("more than 200 rules");
    expect(
      (
        await api("POST", p.admin("/lists"), {
          key: p.keys.editor,
          body: { name: "ten", kind: "dynamic", rules: nest(10) },
        })
      ).status,
    ).toBe(201);
  });

  it("a journey's user_rule is bounded the same way", async () => {
    const res = await api("POST", p.admin("/journeys"), {
      key: p.keys.editor,
      body: { name: "deep", entrances: [{ kind: "event", event_name: "Org Thing", user_rule: nest(11) }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe(`entrances[0].user_rule${".all[0]".repeat(10)}`);
  });

  it("any body nested past 64 levels is a 400 before it is parsed", async () => {
    let deep = "1";
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? `[${deep}]` : `{"a":${deep}}`;
    const res = await api("POST", p.client("/users"), {
      key: p.keys.client,
      raw: deep,
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toBe("nested deeper than 64 levels");
  });
});
