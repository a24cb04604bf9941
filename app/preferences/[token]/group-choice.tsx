import { ChannelBadge } from "@/app/_components/public-shell";

const OPTIONS = [
  { value: "subscribed", label: "Subscribed" },
  { value: "unsubscribed", label: "Unsubscribed" },
] as const;

/** One group: two radios styled as a segmented control, named by the group for screen readers. */
export function GroupChoice(props: {
  id: string;
  name: string;
  description: string | null;
  channel: string;
  chosen: string;
}) {
  const labelId = `group-${props.id}-label`;
  return (
    <div className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="flex items-center gap-2 text-sm font-medium text-zinc-900">
          <span id={labelId}>{props.name}</span> <ChannelBadge channel={props.channel} />
        </p>
        {props.description ? <p className="mt-1 text-sm text-zinc-500">{props.description}</p> : null}
      </div>
      <div
        role="radiogroup"
        aria-labelledby={labelId}
        className="inline-flex shrink-0 self-start rounded-lg bg-zinc-100 p-1 sm:self-auto"
      >
        {OPTIONS.map((o) => (
          <label key={o.value} className="relative">
            <input
              type="radio"
              name={`group:${props.id}`}
              value={o.value}
              defaultChecked={props.chosen === o.value}
              className="peer sr-only"
            />
            <span className="block cursor-pointer rounded-md px-3 py-1.5 text-sm font-medium text-zinc-500 peer-checked:bg-white peer-checked:text-zinc-900 peer-checked:shadow-sm peer-focus-visible:ring-2 peer-focus-visible:ring-indigo-500">
              {o.label}
            </span>
          </label>
        ))}
      </div>
    </div>
  );
}
