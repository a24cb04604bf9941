import type { MessageDelivery } from "@/db/schema";

/**
 * How strong a delivery state is: a report replaces the message's delivery only when it is at least as
 * strong, so a late `delivered` (providers do not keep order) never undoes a bounce, and a complaint, the
 * strongest signal a recipient gives, stays.
 */
export function deliveryRank(d: Pick<MessageDelivery, "state" | "type"> | null): number {
  if (!d) return 0;
  switch (d.state) {
    case "deferred":
      return 1;
    case "delivered":
      return 2;
    case "bounced":
      return d.type === "hard" ? 4 : 3;
    case "complained":
      return 5;
  }
}
