import type { Catalogue } from "./reports-seed";

/** A project the bench acts in: its id and an admin key. */
export type BenchProject = { projectId: string; key: string };

/** An admin call of `p`'s project on the server at `url`; throws on a refusal. */
export async function admin<T = { id: string }>(url: string, p: BenchProject, path: string, body?: unknown) {
  const res = await fetch(`${url}/api/admin/projects/${p.projectId}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${p.key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A project's templates, broadcasts (to an empty list: the seed writes their messages) and journey. */
export async function catalogue(url: string, p: BenchProject): Promise<Catalogue> {
  const call = <T = { id: string }>(path: string, body?: unknown) => admin<T>(url, p, path, body);
  // A provider nothing is sent through (every seeded message is sent already): journeys need one to save.
  await call("/providers", {
    channel: "email",
    kind: "smtp",
    name: "none",
    url: "smtp://127.0.0.1:9?tls=none",
    from: "Bench <news@bench.example>",
  });
  const group = await call("/subscription-groups", { name: "News", channel: "email" });
  const list = await call("/lists", { name: "Nobody", kind: "static" });
  const template = (name: string) =>
    call("/templates", {
      name,
      channel: "email",
      subscription_group: group.id,
      subject: name,
      html: `<html><body><p>${name}</p><a href="https://example.com/${name}">Read</a></body></html>`,
    });
  const templates = {
    news: (await template("Newsletter")).id,
    promo: (await template("Promo")).id,
    welcome: (await template("Welcome")).id,
    nudge: (await template("Nudge")).id,
  };
  const broadcasts: string[] = [];
  for (let k = 0; k < 8; k++)
    broadcasts.push(
      (
        await call("/broadcasts", {
          name: `Issue ${k + 1}`,
          template_id: k < 4 ? templates.news : templates.promo,
          list_id: list.id,
          goal: { event: "Purchased", within: "3 days", value_path: "data.total" },
        })
      ).id,
    );
  const journey = await call<{ id: string; entrances: { id: string }[] }>("/journeys", {
    name: "Onboarding",
    allow_multiple_entries: true,
    entrances: [{ kind: "event", event_name: "Signed Up" }],
    steps: [
      { key: "welcome", kind: "send", template_id: templates.welcome },
      { key: "wait", kind: "delay", duration: "1 day" },
      {
        key: "split",
        kind: "split",
        paths: [
          { weight: 50, next: "nudge" },
          { weight: 50, next: "bye" },
        ],
      },
      { key: "nudge", kind: "send", template_id: templates.nudge, next: "bye" },
      { key: "bye", kind: "exit" },
    ],
  });
  return { projectId: p.projectId, templates, broadcasts, journeyId: journey.id, entranceId: journey.entrances[0]!.id };
}
