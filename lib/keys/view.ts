import type { ApiKey } from "@/db/schema";
import type { KeyView } from "./schemas";

export function toKeyView(k: Omit<ApiKey, "secretHash">, createdBy: string | null): KeyView {
  return {
    id: k.id,
    name: k.name,
    role: k.role,
    prefix: k.prefix,
    created_by: createdBy,
    rate_limit_per_second: k.rateLimitPerSecond,
    rate_limit_burst: k.rateLimitBurst,
    allowed_origins: k.allowedOrigins,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt ? k.lastUsedAt.toISOString() : null,
  };
}
