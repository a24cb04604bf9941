import { describe, expect, it } from "vitest";
import { quietUntil } from "./quiet-hours";
import { variantFor } from "@/lib/templates/variant";

const night = { start: "21:00", end: "08:00" };

describe("quiet hours in the user's time zone", () => {
  it("holds a message sent late in the evening until the next local morning, across the day boundary", () => {
    // 23:30 in Berlin (CET, UTC+1) on 14 January: released at 08:00 Berlin on 15 January = 07:00 UTC.
    const at = new Date("2026-01-14T22:30:00Z");
    expect(quietUntil(at, "Europe/Berlin", night)?.toISOString()).toBe("2026-01-15T07:00:00.000Z");
  });

  it("holds one sent after local midnight until that same morning", () => {
    // 02:15 in New York (EST, UTC-5) on 15 January: released at 08:00 New York = 13:00 UTC.
    const at = new Date("2026-01-15T07:15:00Z");
    expect(quietUntil(at, "America/New_York", night)?.toISOString()).toBe("2026-01-15T13:00:00.000Z");
  });

  it("lets a message go outside the window, and reads an unknown zone as UTC", () => {
    expect(quietUntil(new Date("2026-01-15T12:00:00Z"), "Europe/Berlin", night)).toBeNull();
    expect(quietUntil(new Date("2026-01-15T22:00:00Z"), null, night)?.toISOString()).toBe("2026-01-16T08:00:00.000Z");
    expect(quietUntil(new Date("2026-01-15T22:00:00Z"), "Mars/Olympus", night)?.toISOString()).toBe(
      "2026-01-16T08:00:00.000Z",
    );
  });

  it("handles a window within one day", () => {
    const lunch = { start: "12:00", end: "13:30" };
    expect(quietUntil(new Date("2026-01-15T12:10:00Z"), "UTC", lunch)?.toISOString()).toBe("2026-01-15T13:30:00.000Z");
    expect(quietUntil(new Date("2026-01-15T13:30:00Z"), "UTC", lunch)).toBeNull();
  });
});

describe("locale variants", () => {
  const t = {
    subject: "Hello",
    text: "Hi",
    html: "<p>Hi</p>",
    locales: { de: { subject: "Hallo" }, "pt-BR": { subject: "Olá", text: "Oi" } },
  };

  it("takes the exact locale, else its language, else the default, part by part", () => {
    expect(variantFor(t, "pt-BR")).toEqual({ locale: "pt-BR", subject: "Olá", text: "Oi", html: "<p>Hi</p>" });
    expect(variantFor(t, "de-AT")).toEqual({ locale: "de", subject: "Hallo", text: "Hi", html: "<p>Hi</p>" });
    expect(variantFor(t, "DE")).toMatchObject({ locale: "de", subject: "Hallo" });
    expect(variantFor(t, "fr")).toEqual({ locale: null, subject: "Hello", text: "Hi", html: "<p>Hi</p>" });
    expect(variantFor(t, null)).toMatchObject({ locale: null, subject: "Hello" });
  });
});
