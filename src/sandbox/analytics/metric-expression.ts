// Arithmetic metric expressions ("eventCount/totalUsers"): + − × ÷, parentheses and numbers over metric names.
import { invalid } from './ga-errors.ts';

export type Evaluate = (value: (name: string) => number) => number;

export interface ParsedExpression {
  names: string[];
  evaluate: Evaluate;
}

export function parseMetricExpression(text: string): ParsedExpression {
  const tokens = text.match(/\s*([A-Za-z_][A-Za-z0-9_:]*|\d+(?:\.\d+)?|[-+*/()])/g)?.map((t) => t.trim());
  if (!tokens || tokens.join('') !== text.replace(/\s+/g, '')) throw invalid(`Invalid metric expression: ${text}`);
  let pos = 0;
  const names: string[] = [];
  const peek = () => tokens[pos];
  const next = () => tokens[pos++];
  const primary = (): Evaluate => {
    const t = next();
    if (t === undefined) throw invalid(`Invalid metric expression: ${text}`);
    if (t === '(') {
      const inner = sum();
      if (next() !== ')') throw invalid(`Invalid metric expression: ${text}`);
      return inner;
    }
    if (t === '-') {
      const inner = primary();
      return (v) => -inner(v);
    }
    if (/^\d/.test(t)) {
      const n = Number(t);
      return () => n;
    }
    if (/^[A-Za-z_]/.test(t)) {
      names.push(t);
      return (v) => v(t);
    }
    throw invalid(`Invalid metric expression: ${text}`);
  };
  const product = (): Evaluate => {
    let left = primary();
    while (peek() === '*' || peek() === '/') {
      const op = next();
      const l = left;
      const r = primary();
      left = op === '*' ? (v) => l(v) * r(v) : (v) => {
        const d = r(v);
        return d === 0 ? 0 : l(v) / d;
      };
    }
    return left;
  };
  const sum = (): Evaluate => {
    let left = product();
    while (peek() === '+' || peek() === '-') {
      const op = next();
      const l = left;
      const r = product();
      left = op === '+' ? (v) => l(v) + r(v) : (v) => l(v) - r(v);
    }
    return left;
  };
  const evaluate = sum();
  if (pos !== tokens.length) throw invalid(`Invalid metric expression: ${text}`);
  return { names, evaluate };
}
