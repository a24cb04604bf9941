import { describe, expect, it } from "vitest";
import { sessionTokenFrom } from "./session-admin";

const withCookie = (cookie: string) => new Request("http://localhost/", { headers: { cookie } });

describe("sessionTokenFrom", () => {
  it("reads next-auth's session cookie, preferring the __Secure- form", () => {
    expect(sessionTokenFrom(withCookie("a=1; authjs.session-token=tok%2B1"))).toBe("tok+1");
    expect(sessionTokenFrom(withCookie("__Secure-authjs.session-token=s; authjs.session-token=p"))).toBe("s");
    expect(sessionTokenFrom(withCookie("a=1"))).toBeNull();
  });

  it("does not throw on a malformed percent-escape in any cookie", () => {
    expect(sessionTokenFrom(withCookie("tracker=%E0%A4%A; authjs.session-token=tok"))).toBe("tok");
    expect(sessionTokenFrom(withCookie("authjs.session-token=%"))).toBe("%");
  });
});
