// The funnel list and editor markup. The editor is a plain form (add / remove steps and preview are submit
// buttons, so it works without JavaScript); funnel-editor-script.ts adds the live preview and validation as you type.
import { h, raw, type SafeHtml } from '../account/html.ts';
import type { FunnelRecord, FunnelStep } from '../store/funnels-repository.ts';
import { MAX_FUNNEL_STEPS, MIN_FUNNEL_STEPS, STEP_MATCHES } from '../store/funnels-repository.ts';
import type { FunnelStepResult } from '../reports/funnel-results.ts';
import { csrfField } from './layout.ts';

const MATCH_LABELS: Record<FunnelStep['match'], string> = { exact: 'is exactly', begins_with: 'begins with', contains: 'contains', regex: 'matches RE2 regex' };

/** `canEdit`: the account's role lets it create and edit funnels (editors and admins); viewers see the list only. */
export function funnelListBody(view: { csrf: string; projectKey: string; funnels: (FunnelRecord & { version: number })[]; notice?: string; canEdit: boolean }): SafeHtml {
  const base = `/dashboard/p/${encodeURIComponent(view.projectKey)}/funnels`;
  const title = (f: FunnelRecord) => (view.canEdit ? h`<a href="${base}/${encodeURIComponent(f.key)}"><strong>${f.name}</strong></a>` : h`<strong>${f.name}</strong>`);
  return h`${view.notice ? h`<p class="notice" role="status">${view.notice}</p>` : ''}${view.canEdit ? h`<p><a href="${base}/new">Create a funnel</a></p>` : h`<p class="muted">Editors and admins create and edit funnels; their results are on the Overview.</p>`}
${
  view.funnels.length === 0
    ? h`<p>No funnels yet. A funnel counts the users who go through 2–10 steps (events or pages) in order.</p>`
    : h`<div class="table-wrap"><table><thead><tr><th scope="col">Funnel</th><th scope="col">Steps</th><th scope="col">Version</th><th scope="col">Created</th></tr></thead><tbody>${view.funnels.map(
        (f) => h`<tr><td>${title(f)}<br><code>${f.key}</code></td><td>${f.steps.map((s) => s.name).join(' → ')}</td><td>${f.version}</td><td>${f.createdAt.slice(0, 10)} via ${f.createdVia}</td></tr>`,
      )}</tbody></table></div>`
}`;
}

export interface EditorView {
  csrf: string;
  action: string;
  previewUrl: string;
  name: string;
  steps: FunnelStep[];
  events: string[];
  pages: string[];
  /** Problems keyed by field name (`name`, `steps`, `steps[1].value`, …). */
  errors: Record<string, string>;
  preview?: { steps: FunnelStepResult[]; period: string } | { error: string };
  button: string;
}

function stepFields(view: EditorView, step: FunnelStep, i: number): SafeHtml {
  const id = (field: string) => `step-${i}-${field}`;
  const error = view.errors[`steps[${i}].value`] ?? view.errors[`steps[${i}].match`] ?? view.errors[`steps[${i}].type`];
  const option = (value: string, label: string, selected: string) => h`<option value="${value}" ${value === selected ? raw('selected') : ''}>${label}</option>`;
  return h`<fieldset class="step" data-step="${i}"><legend>Step ${i + 1}</legend>
<div><label for="${id('type')}">Kind</label><select id="${id('type')}" name="step_type">${option('page', 'Page', step.type)}${option('event', 'Event', step.type)}</select></div>
<div><label for="${id('match')}">Match</label><select id="${id('match')}" name="step_match">${STEP_MATCHES.map((m) => option(m, MATCH_LABELS[m], step.match))}</select></div>
<div><label for="${id('value')}">Value</label><input id="${id('value')}" name="step_value" type="text" required maxlength="500" value="${step.value}" list="${step.type === 'event' ? 'observed-events' : 'observed-pages'}" aria-describedby="${id('error')}" ${error ? raw('aria-invalid="true"') : ''}></div>
<div class="wide"><label for="${id('name')}">Label (optional)</label><input id="${id('name')}" name="step_name" type="text" maxlength="100" value="${step.name === step.value ? '' : step.name}"></div>
<p class="invalid wide" id="${id('error')}" aria-live="polite">${error ?? ''}</p>
${view.steps.length > MIN_FUNNEL_STEPS ? h`<div class="wide"><button type="submit" name="op" value="remove:${i}" formnovalidate aria-label="Remove step ${i + 1}">Remove step</button></div>` : ''}</fieldset>`;
}

function previewSection(view: EditorView): SafeHtml {
  const p = view.preview;
  const body =
    p === undefined
      ? h`<p class="muted">Users per step over the last 28 days appear here.</p>`
      : 'error' in p
        ? h`<p class="error">${p.error}</p>`
        : h`<table><thead><tr><th scope="col">Step</th><th scope="col">Users</th><th scope="col">Of step 1</th></tr></thead><tbody>${p.steps.map(
            (s) => h`<tr><td>${s.name}</td><td data-users>${s.users.toLocaleString('en-US')}</td><td>${(s.conversionRate * 100).toFixed(1)}%</td></tr>`,
          )}</tbody></table><p class="hint">${p.period}</p>`;
  return h`<section aria-labelledby="preview-title"><h2 id="preview-title">Preview</h2><div id="preview" aria-live="polite">${body}</div></section>`;
}

export function editorBody(view: EditorView): SafeHtml {
  return h`<form method="post" action="${view.action}" id="funnel-form" data-preview="${view.previewUrl}">${csrfField(view.csrf)}
${view.errors.steps ? h`<p class="error" role="alert">${view.errors.steps}</p>` : ''}
<label for="funnel-name">Funnel name</label><input id="funnel-name" name="name" type="text" required maxlength="100" value="${view.name}" ${view.errors.name ? raw('aria-invalid="true" aria-describedby="name-error"') : ''}>
${view.errors.name ? h`<p class="invalid" id="name-error">${view.errors.name}</p>` : ''}
<datalist id="observed-events">${view.events.map((e) => h`<option value="${e}"></option>`)}</datalist>
<datalist id="observed-pages">${view.pages.map((p) => h`<option value="${p}"></option>`)}</datalist>
<p class="hint">Suggestions come from the events and pages seen on the site in the last 28 days.</p>
${view.steps.map((s, i) => stepFields(view, s, i))}
<div class="row">${view.steps.length < MAX_FUNNEL_STEPS ? h`<button type="submit" name="op" value="add" formnovalidate>Add step</button>` : ''}<button type="submit" name="op" value="preview">Preview</button>
<button class="primary" type="submit" name="op" value="save">${view.button}</button></div></form>${previewSection(view)}`;
}

export function funnelAdminBody(view: { csrf: string; base: string; funnel: FunnelRecord & { version: number } }): SafeHtml {
  return h`<section aria-labelledby="rename-title"><h2 id="rename-title">Rename</h2><p class="hint">Renaming keeps the version and the results; the key <code>${view.funnel.key}</code> stays.</p>
<form method="post" action="${view.base}/rename">${csrfField(view.csrf)}<label for="rename">New name</label><input id="rename" name="name" type="text" required maxlength="100" value="${view.funnel.name}"><div class="row"><button type="submit">Rename</button></div></form></section>
<section aria-labelledby="delete-title"><h2 id="delete-title">Delete</h2><form method="post" action="${view.base}/delete">${csrfField(view.csrf)}
<label for="confirm-delete"><input id="confirm-delete" type="checkbox" name="confirm" value="yes" required> Yes, delete “${view.funnel.name}” (API clients and MCP lose it too)</label>
<div class="row"><button class="danger" type="submit">Delete funnel</button></div></form></section>`;
}
