export * from "./console";
export * from "./end-users";
export * from "./events";
export * from "./pipeline";
export * from "./lists";
export * from "./journeys";
export * from "./console-auth";
export * from "./invites";
