import { describe, expect, it } from "vitest";
import { renderTurn } from "./render-turns";

describe("renderTurn", () => {
  it("lets work that arrived during one render run before the next render", async () => {
    const order: string[] = [];
    const turns = [1, 2, 3].map((n) =>
      renderTurn().then(() => {
        order.push(`render ${n}`);
        // A reply that falls due while this message renders (a render of 3 ms): it must not wait for all three.
        setTimeout(() => order.push(`reply after ${n}`), 1);
        const until = performance.now() + 3;
        while (performance.now() < until);
      }),
    );
    await Promise.all(turns);
    await new Promise((r) => setTimeout(r, 5));
    expect(order).toEqual(["render 1", "reply after 1", "render 2", "reply after 2", "render 3", "reply after 3"]);
  });

  it("takes turns in the order they were asked for", async () => {
    const order: number[] = [];
    await Promise.all(Array.from({ length: 50 }, (_, i) => renderTurn().then(() => order.push(i))));
    expect(order).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });
});
