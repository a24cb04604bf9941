/**
 * What a report counts, in the order a send proceeds. No imports: the console's pages (the message log's
 * "What it did" filter) read it as well as the schemas.
 */
export const REPORT_METRICS = [
  "sent",
  "delivered",
  "bounced",
  "complained",
  "opened",
  "opened_machine",
  "clicked",
  "unsubscribed",
  "converted",
] as const;
