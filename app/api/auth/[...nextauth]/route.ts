import { handlers } from "@/lib/access/auth";

export const { GET, POST } = handlers;
