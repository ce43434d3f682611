// Renders the human API reference (/api/v1/docs) from the OpenAPI document: one static, accessible HTML page.
import type { OpenApiDocument } from '../openapi/build-document.ts';
import { curlExample } from './curl-example.ts';
import { toDocsModel, type DocsField, type DocsModel, type DocsOperation, type DocsParameter } from './docs-model.ts';
import { DOCS_CSS } from './docs-styles.ts';
import { escapeHtml as e } from '../account/html.ts';
import { inlineMarkdown, renderMarkdown, slug } from './html.ts';

/** Links to the contract's own surfaces (relative, so the page works on any host and offline). */
export const DOCS_LINKS = { openapi: '/api/v1/openapi.json', mcp: '/api/mcp', graphql: '/api/graphql' } as const;

export function renderDocsPage(document: OpenApiDocument): string {
  const model = toDocsModel(document);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(model.title)} ${e(model.version)} — reference</title>
<style>${DOCS_CSS}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<h1>${e(model.title)} <span class="muted">${e(model.version)}</span></h1>
<p>Base URL <code>${e(model.server)}</code> · <a href="${DOCS_LINKS.openapi}">OpenAPI 3.1 document</a> · MCP endpoint <a href="${DOCS_LINKS.mcp}"><code>${DOCS_LINKS.mcp}</code></a> (Streamable HTTP) · GraphQL <a href="${DOCS_LINKS.graphql}"><code>${DOCS_LINKS.graphql}</code></a> (internal tools)</p>
</header>
<div class="layout">
${renderNav(model)}
<main id="main" tabindex="-1">
<section id="overview" aria-labelledby="overview-title">
<h2 id="overview-title">Overview</h2>
${renderMarkdown(model.description, { headingLevel: 3, idPrefix: 'overview-' })}
<p>The examples read your key from <code>$SITELINE_KEY</code>: <code>export SITELINE_KEY=sl_live_…</code></p>
</section>
${model.tags.map((tag) => renderTag(model, tag)).join('\n')}
${renderSharedTypes(model)}
${renderErrors(model)}
</main>
</div>
</body>
</html>
`;
}

function renderNav(model: DocsModel): string {
  const tags = model.tags
    .map((tag) => `<li><a href="#tag-${slug(tag.name)}">${e(tag.name)}</a><ul>${tag.operations.map((op) => `<li><a href="#op-${e(op.id)}">${e(op.summary)}</a></li>`).join('')}</ul></li>`)
    .join('');
  return `<nav aria-label="Contents"><h2>Contents</h2><ul><li><a href="#overview">Overview</a></li>${tags}<li><a href="#types">Shared types</a></li><li><a href="#errors">Errors</a></li></ul></nav>`;
}

function renderTag(model: DocsModel, tag: DocsModel['tags'][number]): string {
  return `<section id="tag-${slug(tag.name)}" aria-labelledby="tag-${slug(tag.name)}-title">
<h2 id="tag-${slug(tag.name)}-title">${e(tag.name.charAt(0).toUpperCase() + tag.name.slice(1))}</h2>
${tag.description ? `<p>${inlineMarkdown(tag.description)}</p>` : ''}
${tag.operations.map((op) => renderOperation(model, op)).join('\n')}
</section>`;
}

function renderOperation(model: DocsModel, op: DocsOperation): string {
  const errors = op.errors
    .map(({ status, codes }) => `<li>${e(status)}: ${codes.map((code) => `<a href="#error-${e(code)}"><code>${e(code)}</code></a>`).join(', ')}</li>`)
    .join('');
  return `<article id="op-${e(op.id)}" aria-labelledby="op-${e(op.id)}-title">
<h3 id="op-${e(op.id)}-title"><span class="method ${op.method.toLowerCase()}">${e(op.method)}</span> <code>${e(op.path)}</code></h3>
<p><strong>${e(op.summary)}</strong></p>
${renderMarkdown(op.description)}
<p>Scope: <code>${e(op.scope)}</code> · Responses: ${op.mediaTypes.map((type) => `<code>${e(type)}</code>`).join(', ')}${op.parameters.some((p) => p.name === 'format') ? ', or <code>text/csv</code> with <code>format=csv</code>' : ''} · operationId <code>${e(op.id)}</code></p>
${op.parameters.length ? renderParameters(op) : '<p class="muted">No parameters.</p>'}
${renderFields(`Response fields of ${e(op.summary)} (200, <code>application/json</code>)`, op.responseFields)}
<h4>Errors</h4>
<ul>${errors}</ul>
<h4>Example request</h4>
${codeBlock(curlExample(model.server, op), `Example request for ${op.summary}`)}
${op.responseExample === undefined ? '' : `<h4>Example answer</h4>\n<p class="muted">Recorded from the demo (lists cut to three items).</p>\n${codeBlock(JSON.stringify(op.responseExample, null, 2), `Example answer of ${op.summary}`)}`}
</article>`;
}

/** Code blocks scroll sideways on narrow screens, so each is a focusable, named region (keyboard users can scroll it). */
function codeBlock(text: string, label: string): string {
  return `<pre tabindex="0" role="region" aria-label="${e(label)}"><code>${e(text)}</code></pre>`;
}

/** A wide table scrolls inside its own focusable region instead of making the page scroll sideways. */
function scrollTable(label: string, table: string): string {
  return `<div class="scroll" tabindex="0" role="region" aria-label="${e(label)}">${table}</div>`;
}

function renderFields(caption: string, fields: DocsField[]): string {
  if (fields.length === 0) return '';
  const rows = fields.map((f) => `<tr><th scope="row"><code>${e(f.path)}</code></th><td>${typeLink(f.type)}${f.required ? '' : ' <span class="muted">(optional)</span>'}</td><td>${inlineMarkdown(f.description)}</td></tr>`);
  return scrollTable(
    caption.replace(/<[^>]+>/g, ''),
    `<table>
<caption>${caption}</caption>
<thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Description</th></tr></thead>
<tbody>${rows.join('')}</tbody>
</table>`,
  );
}

/** Shared type names link to their description in the shared types section. */
function typeLink(type: string): string {
  return e(type).replace(/\b(Period|Meta|Warning|Compared|MetricValue|Project|Funnel|FunnelStep|Problem)\b/g, '<a href="#type-$1">$1</a>');
}

function renderSharedTypes(model: DocsModel): string {
  return `<section id="types" aria-labelledby="types-title">
<h2 id="types-title">Shared types</h2>
${model.sharedTypes.map((t) => `<h3 id="type-${e(t.name)}">${e(t.name)}</h3>${t.description ? `<p>${inlineMarkdown(t.description)}</p>` : ''}${renderFields(`Fields of ${e(t.name)}`, t.fields)}`).join('\n')}
</section>`;
}

function renderParameters(op: DocsOperation): string {
  const rows = op.parameters.map((p) => `<tr><th scope="row"><code>${e(p.name)}</code></th><td>${e(p.in)}${p.required ? ', <strong>required</strong>' : ''}</td><td>${typeOf(p)}</td><td>${inlineMarkdown(p.description)}${p.example === undefined ? '' : ` <span class="muted">Example: <code>${e(String(p.example))}</code></span>`}</td></tr>`);
  return scrollTable(
    `Parameters of ${op.summary}`,
    `<table>
<caption>Parameters</caption>
<thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Values</th><th scope="col">Description</th></tr></thead>
<tbody>${rows.join('')}</tbody>
</table>`,
  );
}

function typeOf(p: DocsParameter): string {
  const values = p.enum ? p.enum.map((v) => `<code>${e(String(v))}</code>`).join(' | ') : e(p.type);
  return p.default === undefined ? values : `${values}; default <code>${e(String(p.default))}</code>`;
}

function renderErrors(model: DocsModel): string {
  const rows = model.errorCodes.map((c) => `<tr id="error-${e(c.code)}"><td><span id="${e(c.code)}"></span>${c.status}</td><th scope="row"><code>${e(c.code)}</code></th><td>${e(c.title)}</td><td>${inlineMarkdown(c.when)}</td></tr>`);
  return `<section id="errors" aria-labelledby="errors-title">
<h2 id="errors-title">Errors</h2>
<p>Every non-2xx answer is <code>application/problem+json</code> (RFC 9457) with <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code>, <code>code</code> and <code>request_id</code>, plus <code>param</code>, <code>errors</code> or <code>provider</code> when they apply.</p>
${scrollTable(
  'Error codes',
  `<table>
<caption>Error codes</caption>
<thead><tr><th scope="col">Status</th><th scope="col">Code</th><th scope="col">Title</th><th scope="col">When</th></tr></thead>
<tbody>${rows.join('')}</tbody>
</table>`,
)}
</section>`;
}
