export { Relay, type RelayOptions } from "./relay.js";
export * from "./destinations.js";
export * from "./messages.js";
export * from "./journeys.js";
export { RelayExplain, type RelayExplainOptions } from "./explain.js";
export * from "./errors.js";
export type * from "./types.js";
export type { Camelize } from "./case.js";
export type { paths, components } from "./generated/api.js";
