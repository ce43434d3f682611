// DOM building and number formatting for the views. Runs in the browser: each function is serialized into the
// view document, so it uses only its parameters and browser globals. Text always goes in as text (never HTML),
// and styles only through CSSOM, so the views need no 'unsafe-eval' and inject nothing.

export type Child = Node | string | number | null | undefined | false;
export interface Props {
  class?: string;
  text?: string;
  attrs?: Record<string, string | number | boolean | undefined>;
  on?: Record<string, (event: Event) => void>;
}

export interface Dom {
  h(tag: string, props?: Props, ...children: Child[]): HTMLElement;
  svg(tag: string, attrs?: Record<string, string | number | undefined>, ...children: Child[]): SVGElement;
  /** Replaces a node's children (null, undefined and false are skipped). */
  replace(parent: Element, ...children: Child[]): void;
  /** A unique id for label/aria references. */
  id(prefix: string): string;
}

export function createDom(doc: Document): Dom {
  let counter = 0;
  const append = (parent: Node, children: Child[]) => {
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      parent.appendChild(typeof child === 'string' || typeof child === 'number' ? doc.createTextNode(String(child)) : child);
    }
  };
  return {
    h(tag, props = {}, ...children) {
      const element = doc.createElement(tag);
      if (props.class) element.className = props.class;
      if (props.text !== undefined) element.textContent = props.text;
      for (const [name, value] of Object.entries(props.attrs ?? {})) {
        if (value === undefined || value === false) continue;
        element.setAttribute(name, value === true ? '' : String(value));
      }
      for (const [name, handler] of Object.entries(props.on ?? {})) element.addEventListener(name, handler);
      append(element, children);
      return element;
    },
    svg(tag, attrs = {}, ...children) {
      const element = doc.createElementNS('http://www.w3.org/2000/svg', tag);
      for (const [name, value] of Object.entries(attrs)) if (value !== undefined) element.setAttribute(name, String(value));
      append(element, children);
      return element;
    },
    replace(parent, ...children) {
      parent.replaceChildren();
      append(parent, children);
    },
    id(prefix) {
      counter += 1;
      return `${prefix}-${counter}`;
    },
  };
}

export interface Format {
  /** A metric's value as people read it: rates as percentages, positions with one decimal, counts grouped. */
  metric(metric: string, value: number | null | undefined): string;
  number(value: number | null | undefined, digits?: number): string;
  compact(value: number): string;
  percent(fraction: number | null | undefined, digits?: number): string;
  /** A change with its sign: +1,234 or −5.2 %. */
  signed(value: number | null | undefined, asPercent?: boolean): string;
  /** Whether a metric's values are fractions (shown as percentages). */
  isRate(metric: string): boolean;
}

export function createFormat(locale: string | undefined): Format {
  const RATES = /^(ctr|expectedCtr|share|deltaPct)$|Rate$/;
  const lang = locale || 'en-US';
  const grouped = (digits: number) => new Intl.NumberFormat(lang, { maximumFractionDigits: digits });
  const missing = '–';
  const number = (value: number | null | undefined, digits = 2) => (value === null || value === undefined || Number.isNaN(value) ? missing : grouped(digits).format(value));
  const percent = (fraction: number | null | undefined, digits = 1) =>
    fraction === null || fraction === undefined ? missing : new Intl.NumberFormat(lang, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(fraction);
  const isRate = (metric: string) => RATES.test(metric);
  return {
    number,
    percent,
    isRate,
    compact: (value) => new Intl.NumberFormat(lang, { notation: 'compact', maximumFractionDigits: 1 }).format(value),
    metric(metric, value) {
      if (isRate(metric)) return percent(value, metric === 'ctr' || metric === 'expectedCtr' ? 2 : 1);
      if (metric === 'position') return number(value, 1);
      return number(value, Number.isInteger(value) ? 0 : 2);
    },
    signed(value, asPercent = false) {
      if (value === null || value === undefined) return missing;
      const text = asPercent ? percent(Math.abs(value)) : number(Math.abs(value));
      return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${text}`;
    },
  };
}
