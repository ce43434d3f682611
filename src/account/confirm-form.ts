// The confirmation step of a destructive action, without JavaScript: the action's first POST answers with this form,
// which sends the same fields again with `confirm=yes`; only that second POST acts. Cancel goes back without
// changing anything.
import { h, type SafeHtml } from './html.ts';

export interface Confirmation {
  csrf: string;
  title: string;
  /** What will happen, in a sentence or two. */
  message: string;
  /** Where the confirming form posts (the action's own route). */
  action: string;
  /** The action's fields, sent again. */
  fields: Record<string, string>;
  button: string;
  /** Where Cancel leads. */
  back: string;
}

/** Whether the form is the confirmed second POST. */
export function isConfirmed(form: URLSearchParams): boolean {
  return form.get('confirm') === 'yes';
}

export function confirmationBody(view: Confirmation): SafeHtml {
  return h`<div class="narrow"><h1>${view.title}</h1><p>${view.message}</p>
<form method="post" action="${view.action}"><input type="hidden" name="csrf" value="${view.csrf}">${Object.entries(view.fields).map(([name, value]) => h`<input type="hidden" name="${name}" value="${value}">`)}<input type="hidden" name="confirm" value="yes">
<div class="row"><button class="danger" type="submit">${view.button}</button><a href="${view.back}">Cancel</a></div></form></div>`;
}
