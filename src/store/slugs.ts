// Project and funnel keys: lowercase slugs that appear in URLs (`^[a-z0-9][a-z0-9-]{1,62}$`).
import { invalidParameter } from '../errors/app-error.ts';
import { BASE62 } from './ids.ts';
import { randomInt } from 'node:crypto';

export const SLUG = /^[a-z0-9][a-z0-9-]{1,62}$/;

export function assertSlug(param: string, value: string): string {
  if (!SLUG.test(value)) {
    throw invalidParameter(param, `'${value}' is not a valid key: use 2–63 lowercase letters, digits and dashes, starting with a letter or digit.`);
  }
  return value;
}

/** `Checkout Flow!` → `checkout-flow-x7k2q`: the name's slug (ASCII-folded, ≤ 50 chars) plus a short random suffix. */
export function slugWithSuffix(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/, '');
  const alphabet = BASE62.slice(0, 36).toLowerCase();
  let suffix = '';
  for (let i = 0; i < 5; i += 1) suffix += alphabet[randomInt(alphabet.length)];
  return base ? `${base}-${suffix}` : `funnel-${suffix}`;
}
