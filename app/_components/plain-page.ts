/**
 * A minimal self-contained HTML page for route handlers that must answer a browser without the React
 * tree (a dead tracked link). Inline styles: no asset can fail to load.
 */
export function plainPage(status: number, title: string, message: string): Response {
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${esc(title)}</title></head>
<body style="margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#fafafa;font-family:ui-sans-serif,system-ui,-apple-system,'Segoe UI',sans-serif;color:#18181b">
<main style="max-width:28rem;margin:1.5rem;padding:2rem;background:#fff;border:1px solid #e4e4e7;border-radius:1rem;box-shadow:0 1px 2px rgba(0,0,0,.05)">
<p style="margin:0;font-size:.75rem;font-weight:600;letter-spacing:.1em;text-transform:uppercase;color:#4f46e5">Relay</p>
<h1 style="margin:.5rem 0 0;font-size:1.25rem;font-weight:600">${esc(title)}</h1>
<p style="margin:.75rem 0 0;line-height:1.6;color:#52525b">${esc(message)}</p>
</main></body></html>`;
  return new Response(html, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "x-robots-tag": "noindex" },
  });
}
