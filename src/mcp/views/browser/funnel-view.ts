// The funnel view (get_funnel_results): each step as a bar of the users who reached it, against step 1, with the
// users lost since the step before; the same figures as a table. Runs in the browser (serialized into the view
// document): uses only its parameter and browser globals.
import type { View, ViewCall, ViewKit } from './boot.ts';

type Step = { name: string; users: number; conversionRate?: number | null; dropOff?: number | null; dropOffRate?: number | null };

export function funnelView(kit: ViewKit): View {
  const { dom, fmt, layout } = kit;
  const { h } = dom;

  function render(body: Record<string, unknown>, call: ViewCall): void {
    const funnel = body.funnel as { key: string; name: string };
    const steps = (body.steps as Step[]) ?? [];
    const first = steps[0]?.users ?? 0;
    const period = (body.period as { name?: string } | undefined)?.name ?? String(call.args.period ?? '28days');

    layout.title.textContent = `Funnel: ${funnel.name}`;
    layout.subtitle.textContent = kit.describe(body);
    kit.setControls([kit.periodSelect(period, (p) => void kit.load('get_funnel_results', { funnel: funnel.key, period: p }))]);

    const bars = steps.map((step, i) => {
      const track = h('div', { class: 'track' });
      const span = h('span', { class: 'span current' });
      span.style.width = `${first > 0 ? (step.users / first) * 100 : 0}%`;
      track.appendChild(span);
      const lost = i === 0 ? '' : ` · ${fmt.signed(-(step.dropOff ?? 0))} (${fmt.percent(step.dropOffRate)}) since “${steps[i - 1]!.name}”`;
      return h('li', {}, h('span', { class: 'label', text: `${i + 1}. ${step.name}` }), track, h('span', { class: 'figure', text: `${fmt.number(step.users)} users · ${fmt.percent(step.conversionRate)} of step 1${lost}` }));
    });
    const columns = [
      { key: 'step', label: 'Step', value: (s: Step) => s.name },
      { key: 'users', label: 'Users', numeric: true, value: (s: Step) => s.users, text: (v: unknown) => fmt.number(v as number) },
      { key: 'conversionRate', label: 'Of step 1', numeric: true, value: (s: Step) => s.conversionRate, text: (v: unknown) => fmt.percent(v as number) },
      { key: 'dropOff', label: 'Lost since previous', numeric: true, value: (s: Step) => s.dropOff, text: (v: unknown) => fmt.number(v as number) },
      { key: 'dropOffRate', label: 'Lost (share)', numeric: true, value: (s: Step) => s.dropOffRate, text: (v: unknown) => fmt.percent(v as number) },
    ];
    const worst = steps.slice(1).reduce<Step | undefined>((w, s) => ((s.dropOffRate ?? 0) > (w?.dropOffRate ?? -1) ? s : w), undefined);
    dom.replace(layout.content, 
      h('p', { class: 'headline', text: `${fmt.percent(body.completionRate as number | null)} of users reached the last step` }),
      worst ? h('p', { class: 'note', text: `The largest drop-off is before “${worst.name}”: ${fmt.percent(worst.dropOffRate)} of the users of the step before.` }) : null,
      h('figure', { attrs: { 'aria-label': `Users per step of ${funnel.name}` } }, h('ol', { class: 'rows' }, ...bars)),
      h('details', { class: 'data' }, h('summary', { text: 'The figures as a table' }), kit.tables.sortable({ caption: `Users per step of ${funnel.name}`, columns, rows: steps })),
      kit.warnings(body),
    );
  }

  return { render };
}
