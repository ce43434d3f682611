// The atoms data is made of: weighted values of a family of dimensions (a city with its country and continent, a
// browser on its device), and the conditions a planted effect selects them by.

export interface Atom {
  share: number;
  /** One value per dimension of the family, in `Family.dims` order. */
  values: readonly string[];
  /** Multiplicative factors (default 1) that tilt derived metrics, e.g. pages per session or CTR. */
  attrs?: Readonly<Record<string, number>>;
}

export interface Family {
  key: string;
  dims: readonly string[];
  atoms: readonly Atom[];
}

/** Dimension values (all must hold, compared case-insensitively) a planted effect applies to. */
export type EffectWhere = readonly (readonly [dimension: string, value: string])[];

/** Whether an atom holds every condition (values compared case-insensitively; the length check is the fast no). */
export function atomHolds(atom: Atom, tests: readonly (readonly [number, string])[]): boolean {
  for (const [p, v] of tests) {
    const value = atom.values[p]!;
    if (value.length !== v.length || value.toLowerCase() !== v) return false;
  }
  return true;
}
