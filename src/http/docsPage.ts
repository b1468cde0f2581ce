/** A self-contained reference page over /openapi.json (no CDN: it must work offline). */
export const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Workyard API</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:980px;margin:2rem auto;padding:0 1rem;color:#1b1f24}
h2{border-bottom:1px solid #ddd;margin-top:2.5rem}.op{border:1px solid #ddd;border-radius:6px;margin:.8rem 0;padding:.6rem .9rem}
.m{font-weight:700;text-transform:uppercase;display:inline-block;width:4.5rem}.p{font-family:monospace}
pre{background:#f6f8fa;padding:.6rem;overflow:auto;font-size:12px}details summary{cursor:pointer}
</style></head><body><h1>Workyard API</h1><p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>
<div id="intro"></div><div id="ops">Loading…</div>
<script>
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]));
fetch('/openapi.json').then((r) => r.json()).then((doc) => {
  document.getElementById('intro').innerHTML = doc.info.description.split('\\n\\n').map((p) => '<p>' + esc(p) + '</p>').join('');
  const byTag = {};
  for (const [path, ops] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(ops)) {
    (byTag[op.tags[0]] ??= []).push({ path, method, op });
  }
  document.getElementById('ops').innerHTML = Object.entries(byTag).map(([tag, ops]) => '<h2>' + esc(tag) + '</h2>' + ops.map(({ path, method, op }) =>
    '<div class="op"><span class="m">' + method + '</span><span class="p">' + esc(path) + '</span> — ' + esc(op.summary) +
    (op.description ? '<p>' + esc(op.description) + '</p>' : '') +
    '<details><summary>parameters, body, responses</summary><pre>' +
    esc(JSON.stringify({ security: op.security, parameters: op.parameters, requestBody: op.requestBody, responses: op.responses }, null, 2)) +
    '</pre></details></div>').join('')).join('');
});
</script></body></html>`;
