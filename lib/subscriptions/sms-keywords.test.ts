import { describe, expect, it } from "vitest";
import { classifySms } from "./sms-keywords";

describe("classifySms", () => {
  it.each(["STOP", "stop", "  Stop  ", "StopAll", "UNSUBSCRIBE", "cancel", "End", "quit", "Stop.", "STOP!\n"])(
    "%j opts out",
    (body) => {
      expect(classifySms(body)).toBe("opt_out");
    },
  );
  it.each(["START", "start", " Unstop "])("%j opts in", (body) => {
    expect(classifySms(body)).toBe("opt_in");
  });
  it.each(["please don't stop", "stop it", "STOP STOP", "don't", "", "   ", "stopp", "s t o p", "yes", "STOP please"])(
    "%j changes nothing",
    (body) => {
      expect(classifySms(body)).toBeNull();
    },
  );
});
