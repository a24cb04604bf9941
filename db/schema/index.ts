export * from "./console";
export * from "./end-users";
export * from "./events";
export * from "./console-auth";
export * from "./invites";
