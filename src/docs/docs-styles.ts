// The docs page's only stylesheet, inlined and allowed by its hash in the CSP (no external assets: works offline).
import { createHash } from 'node:crypto';

export const DOCS_CSS = `
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#4a5560;--bg:#fff;--panel:#f4f6f8;--line:#d0d7de;--accent:#0b5cad;--get:#116329;--post:#8a4600}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#a8b3bd;--bg:#0d1117;--panel:#161b22;--line:#30363d;--accent:#6cb6ff;--get:#56d364;--post:#f0a35e}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}
a:focus-visible,summary:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:var(--bg);padding:.5rem 1rem}
.skip:focus{left:1rem}
header{padding:1.25rem 2rem;border-bottom:1px solid var(--line)}
header h1{margin:0 0 .25rem;font-size:1.6rem}
.layout{display:grid;grid-template-columns:minmax(14rem,18rem) 1fr;gap:2rem;padding:0 2rem 3rem}
nav{position:sticky;top:0;align-self:start;max-height:100vh;overflow:auto;padding-top:1rem;font-size:.92rem}
@media (max-width:800px){.layout{grid-template-columns:minmax(0,1fr);padding:0 1rem 2rem;gap:0}header{padding:1rem}nav{position:static;max-height:none;overflow:visible;border-bottom:1px solid var(--line)}article{padding:.75rem}}
nav ul{list-style:none;padding-left:.75rem;margin:.25rem 0}
nav li{margin:.3rem 0}
nav a{display:inline-block;min-height:24px;padding:2px 0}
main{min-width:0}
article{border:1px solid var(--line);border-radius:8px;padding:1rem 1.25rem;margin:1rem 0;background:var(--panel)}
article h3{margin:.25rem 0 .5rem;font-size:1.1rem;word-break:break-all}
.method{display:inline-block;min-width:3.5rem;font:700 .8rem/1.8 ui-monospace,monospace;color:var(--get)}
.method.post{color:var(--post)}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.88em}
pre{background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:.75rem;overflow:auto;max-height:32rem}
pre:focus-visible,.scroll:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.scroll{overflow-x:auto;max-width:100%}
p,td,li,h3{overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;margin:.5rem 0;font-size:.92rem}
caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{border:1px solid var(--line);padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:var(--bg)}
.muted{color:var(--muted)}
`;

export const DOCS_CSS_HASH = `sha256-${createHash('sha256').update(DOCS_CSS).digest('base64')}`;

/** No scripts, no frames, no forms, no external anything: only the inline stylesheet above. */
export const DOCS_CSP = `default-src 'none'; style-src '${DOCS_CSS_HASH}'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
