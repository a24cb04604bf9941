import { describe, expect, it } from "vitest";
import { errorToResponse } from "./problem";

describe("errorToResponse", () => {
  it("answers a foreign-key race (a template, list or provider deleted under an insert) with 409, not 500", async () => {
    // As postgres.js throws it, wrapped by drizzle.
    const driver = Object.assign(new Error("insert or update violates foreign key constraint"), {
      code: "23503",
      detail: 'Key (project_id, list_id)=(0190…, 0190…) is not present in table "lists".',
    });
    const res = errorToResponse(Object.assign(new Error("Failed query"), { cause: driver }));
    expect(res.status).toBe(409);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const body = await res.json();
    expect(body.detail).toBe("A list this request names was deleted while it was being written: nothing was saved.");
  });
});
