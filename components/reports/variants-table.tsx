"use client";
import { Section } from "@/components/ui/states";
import type { BroadcastReport } from "@/lib/reports/schemas";

type Test = NonNullable<BroadcastReport["test"]>;

const percent = (r: number) => `${(r * 100).toFixed(1)} %`;
const METRIC = { open: "opened", click: "clicked", conversion: "converted" } as const;

/** A broadcast test's variants side by side: sends, the test metric's rate with its interval, the chance to win. */
export function VariantsTable({ test }: { test: Test }) {
  const verdict = test.winner
    ? `Variant ${test.winner.index + 1} won (${percent(test.winner.chance)} chance to beat the others); the rest got it.`
    : test.decides_at
      ? `The best variant so far wins at ${new Date(test.decides_at).toLocaleString("en")}; ${Math.round((1 - test.fraction) * 100)} % of recipients wait for it.`
      : `The test starts with the broadcast; ${Math.round(test.fraction * 100)} % of recipients get the variants.`;
  return (
    <Section title="A/B test" description={verdict}>
      <div className="overflow-x-auto">
        <table className="w-full min-w-[32rem] text-left text-sm">
          <thead className="text-xs uppercase tracking-wide text-zinc-500">
            <tr>
              <th className="py-2 pr-4 font-medium">Variant</th>
              <th className="py-2 pr-4 text-right font-medium">Sent</th>
              <th className="py-2 pr-4 text-right font-medium">{METRIC[test.metric]}</th>
              <th className="py-2 pr-4 text-right font-medium">Rate (95 %)</th>
              <th className="py-2 text-right font-medium">Chance to win</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100 tabular-nums">
            {test.variants.map((v) => (
              <tr
                key={v.index}
                className={test.winner?.index === v.index ? "font-semibold text-zinc-900" : "text-zinc-700"}
              >
                <td className="py-2 pr-4">
                  {v.index + 1}. {v.template_name ?? "(deleted template)"}
                  {test.winner?.index === v.index ? " (winner)" : ""}
                </td>
                <td className="py-2 pr-4 text-right">{v.sent.toLocaleString("en")}</td>
                <td className="py-2 pr-4 text-right">{v.successes.toLocaleString("en")}</td>
                <td className="py-2 pr-4 text-right">
                  {percent(v.rate)}{" "}
                  <span className="text-xs text-zinc-500">
                    ({percent(v.interval[0])}–{percent(v.interval[1])})
                  </span>
                </td>
                <td className="py-2 text-right">{percent(v.chance_to_beat_others)}</td>
              </tr>
            ))}
            <tr className="text-zinc-700">
              <td className="py-2 pr-4">Rest (the winner)</td>
              <td className="py-2 pr-4 text-right">{test.rest.funnel.sent.count.toLocaleString("en")}</td>
              <td className="py-2 pr-4 text-right">
                {test.rest.funnel[METRIC[test.metric]].count.toLocaleString("en")}
              </td>
              <td className="py-2 pr-4 text-right">{percent(test.rest.funnel[METRIC[test.metric]].rate)}</td>
              <td className="py-2 text-right" />
            </tr>
          </tbody>
        </table>
      </div>
    </Section>
  );
}
