// Planted events as multipliers on the atoms of the data families, per day. One mechanism serves GA and both
// search engines: a day's totals scale by how much of each family the multipliers keep, and a report cell gets,
// per combination, the multipliers that make its rows sum to those totals exactly (weights for volumes, and
// corrections of the `ctr` and `pos` attributes for clicks and positions).
import type { ComboTable, Family } from '../data/cube.ts';

export interface AtomMultiplier {
  /** Volume (sessions, impressions). */
  w: number;
  ctr?: number;
  pos?: number;
}

/** One event's effect on some atoms of one family. */
export interface AtomEffect {
  family: string;
  atoms: ReadonlySet<number>;
  at(atom: number, day: number): AtomMultiplier;
}

export interface CellMultipliers {
  weight: Float64Array;
  attrs: Record<'ctr' | 'pos', Float64Array>;
}

export interface PlantedFamilies {
  /** Factors on a day's totals: volume (`w`) and clicks (volume × CTR). */
  day(day: number): { w: number; clicks: number };
  /** Per-combination multipliers for a cell spanning `days`, each day weighted by `weightOf(day)`. */
  cell(table: ComboTable, days: readonly number[], weightOf: (day: number) => number): CellMultipliers;
  /** Volume, CTR and position of a set of atoms on one day (for per-query daily series). */
  atomsOn(family: string, atoms: readonly number[], day: number): { share: number; ctr: number; pos: number };
}

const attrOf = (family: Family, atom: number, name: string) => family.atoms[atom]!.attrs?.[name] ?? 1;

interface FamilyPlan {
  family: Family;
  effects: AtomEffect[];
  affected: number[];
  /** Σ share and Σ share × ctr over the base atoms (the ones before `baseCount`). */
  baseShare: number;
  baseCtr: number;
}

export function plantFamilies(families: readonly Family[], effects: readonly AtomEffect[], baseCount: ReadonlyMap<string, number> = new Map()): PlantedFamilies {
  const plans: FamilyPlan[] = [];
  for (const family of families) {
    const own = effects.filter((e) => e.family === family.key);
    if (own.length === 0) continue;
    const affected = [...new Set(own.flatMap((e) => [...e.atoms]))].sort((a, b) => a - b);
    const base = baseCount.get(family.key) ?? family.atoms.length;
    let baseShare = 0, baseCtr = 0;
    for (let a = 0; a < base; a++) {
      const s = family.atoms[a]!.share;
      baseShare += s;
      baseCtr += s * attrOf(family, a, 'ctr');
    }
    plans.push({ family, effects: own, affected, baseShare, baseCtr });
  }

  const multiplierOf = (plan: FamilyPlan, atom: number, day: number): Required<AtomMultiplier> => {
    let w = 1, ctr = 1, pos = 1;
    for (const e of plan.effects) {
      if (!e.atoms.has(atom)) continue;
      const m = e.at(atom, day);
      w *= m.w;
      ctr *= m.ctr ?? 1;
      pos *= m.pos ?? 1;
    }
    return { w, ctr, pos };
  };

  const day = (d: number) => {
    let w = 1, clicks = 1;
    for (const plan of plans) {
      // Atoms beyond the base ones exist only for planted events: they count with their multipliers alone.
      let share = plan.baseShare, ctrMass = plan.baseCtr;
      const base = baseCount.get(plan.family.key) ?? plan.family.atoms.length;
      for (const a of plan.affected) {
        const s = plan.family.atoms[a]!.share;
        const c = attrOf(plan.family, a, 'ctr');
        const m = multiplierOf(plan, a, d);
        if (a < base) {
          share -= s;
          ctrMass -= s * c;
        }
        share += s * m.w;
        ctrMass += s * m.w * m.ctr * c;
      }
      w *= plan.baseShare > 0 ? share / plan.baseShare : 1;
      clicks *= plan.baseCtr > 0 ? ctrMass / plan.baseCtr : 1;
    }
    return { w, clicks };
  };

  const cell = (table: ComboTable, days: readonly number[], weightOf: (day: number) => number): CellMultipliers => {
    const out: CellMultipliers = { weight: new Float64Array(table.size).fill(1), attrs: { ctr: new Float64Array(table.size).fill(1), pos: new Float64Array(table.size).fill(1) } };
    const dayWeights = days.map(weightOf);
    const totalWeight = dayWeights.reduce((a, b) => a + b, 0) || 1;
    for (const plan of plans) {
      const { family } = plan;
      const positions = table.dims.map((d, i) => [family.dims.indexOf(d), i] as const).filter(([p]) => p >= 0);
      const keyOfAtom = (a: number) => positions.map(([p]) => family.atoms[a]!.values[p]).join('\u0001');
      // Per group of the table (atoms sharing the table's values of this family): base sums over all its atoms,
      // and the same sums with the cell's average multipliers.
      const groups = new Map<string, { s: number; sc: number; sp: number; sw: number; swc: number; swp: number }>();
      for (const a of plan.affected) groups.set(keyOfAtom(a), { s: 0, sc: 0, sp: 0, sw: 0, swc: 0, swp: 0 });
      const affected = new Set(plan.affected);
      family.atoms.forEach((atom, a) => {
        const g = groups.get(keyOfAtom(a));
        if (!g) return;
        const s = atom.share, c = attrOf(family, a, 'ctr'), p = attrOf(family, a, 'pos');
        g.s += s;
        g.sc += s * c;
        g.sp += s * p;
        if (!affected.has(a)) {
          g.sw += s;
          g.swc += s * c;
          g.swp += s * p;
          return;
        }
        let mw = 0, mwc = 0, mwp = 0;
        days.forEach((d, i) => {
          const m = multiplierOf(plan, a, d);
          mw += dayWeights[i]! * m.w;
          mwc += dayWeights[i]! * m.w * m.ctr;
          mwp += dayWeights[i]! * m.w * m.pos;
        });
        g.sw += (s * mw) / totalWeight;
        g.swc += (s * c * mwc) / totalWeight;
        g.swp += (s * p * mwp) / totalWeight;
      });
      for (let combo = 0; combo < table.size; combo++) {
        const key = positions.map(([, i]) => table.value(combo, i)).join('\u0001');
        const g = groups.get(key);
        if (!g || g.s === 0) continue;
        out.weight[combo]! *= g.sw / g.s;
        if (g.sw > 0) {
          out.attrs.ctr[combo]! *= g.sc > 0 ? g.swc / g.sw / (g.sc / g.s) : 1;
          out.attrs.pos[combo]! *= g.sp > 0 ? g.swp / g.sw / (g.sp / g.s) : 1;
        }
      }
    }
    return out;
  };

  const atomsOn = (familyKey: string, atoms: readonly number[], d: number) => {
    const plan = plans.find((p) => p.family.key === familyKey);
    const family = plan?.family ?? families.find((f) => f.key === familyKey)!;
    let share = 0, ctrMass = 0, posMass = 0;
    for (const a of atoms) {
      const s = family.atoms[a]!.share;
      const m = plan ? multiplierOf(plan, a, d) : { w: 1, ctr: 1, pos: 1 };
      share += s * m.w;
      ctrMass += s * m.w * m.ctr * attrOf(family, a, 'ctr');
      posMass += s * m.w * m.pos * attrOf(family, a, 'pos');
    }
    return { share, ctr: share > 0 ? ctrMass / share : 0, pos: share > 0 ? posMass / share : 0 };
  };

  return { day, cell, atomsOn };
}
