export * from "./organizations";
export * from "./catalog";
export * from "./orders";
export * from "./webhooks";
export * from "./api-infra";
export * from "./audit";
export * from "./request-log";
