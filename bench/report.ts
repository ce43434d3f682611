// Renders a benchmark report as Markdown: one table per suite, with target status.
import { meets, type SuiteResult } from './suite.ts';

export function renderMarkdown(report: { startedAt: string; node: string; cpus: number; loadAverage?: number; suites: SuiteResult[] }): string {
  const lines = [`# Siteline benchmarks`, '', `${report.startedAt} · Node ${report.node} · ${report.cpus} CPUs${report.loadAverage === undefined ? '' : ` · load average ${report.loadAverage.toFixed(1)} at start`}`, '', 'Throughput figures are ratios against a yardstick measured in the same run; absolute req/s depend on the machine and on what else runs on it.', ''];
  for (const suite of report.suites) {
    lines.push(`## ${suite.suite}`, '', suite.description, '', '| measurement | value | target | status | notes |', '|---|---|---|---|---|');
    for (const m of suite.measurements) {
      const ok = meets(m);
      const target = m.target ? `${m.target.op} ${m.target.value} ${m.unit}` : '';
      const status = ok === undefined ? '' : ok ? 'met' : '**missed**';
      lines.push(`| ${m.name} | ${round(m.value)} ${m.unit} | ${target} | ${status} | ${m.notes ?? ''} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

function round(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 3 : 1);
}
