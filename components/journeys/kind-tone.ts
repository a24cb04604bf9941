/** A step box's border and fill by the step's kind: the read-only flow and the editing canvas look alike. */
export const KIND_TONE: Record<string, string> = {
  delay: "border-amber-300 bg-amber-50",
  wait: "border-sky-300 bg-sky-50",
  branch: "border-violet-300 bg-violet-50",
  split: "border-violet-300 bg-violet-50",
  send: "border-emerald-300 bg-emerald-50",
  update: "border-zinc-300 bg-white",
  exit: "border-zinc-400 bg-zinc-100",
};
