// Each segment's own course over time, as real sites have: a linear trend (atom attr `trend`, per year) and a slow
// seeded wave (attr `wave`: its amplitude; attr `waveSeed`: its phase and periods), so countries, devices, channels
// and landing pages drift apart in quiet periods too. A family's groups move with the share-weighted mean of their
// atoms, and a planted event's reach is measured with the same numbers (`segmentShare`), so the whole stays one model.
import { atomHolds, type Atom, type EffectWhere, type Family } from './atoms.ts';
import { unit } from './hash.ts';

/** Anchor of the linear trends, fixed so a date's numbers never depend on when the sandbox runs. */
export const TREND_ANCHOR = Math.floor(Date.UTC(2025, 0, 1) / 86_400_000);
const TWO_PI = 2 * Math.PI;

/** When a cell is: its middle day and how many days it spans (a long cell averages the wave out). */
export interface CellTime {
  day: number;
  span: number;
}

interface Wave {
  amplitude: number;
  omega1: number;
  phase1: number;
  omega2: number;
  phase2: number;
}

const waveCache = new WeakMap<Atom, Wave | null>();

function waveOf(atom: Atom): Wave | null {
  let wave = waveCache.get(atom);
  if (wave !== undefined) return wave;
  const amplitude = atom.attrs?.wave ?? 0;
  const seed = atom.attrs?.waveSeed ?? 0;
  // One slow component (4–12 months) and one faster (5–12 weeks): a segment's 28-day change then differs from its
  // neighbours' by a few points, as on a real property.
  wave = amplitude === 0 ? null : {
    amplitude,
    omega1: TWO_PI / (120 + 240 * unit(seed, 1)), phase1: TWO_PI * unit(seed, 2),
    omega2: TWO_PI / (35 + 50 * unit(seed, 3)), phase2: TWO_PI * unit(seed, 4),
  };
  waveCache.set(atom, wave);
  return wave;
}

/** Mean of sin(ωd + φ) over `span` days centred on `day`. */
function meanSin(omega: number, phase: number, time: CellTime): number {
  const half = (omega * time.span) / 2;
  const damp = time.span <= 1 ? 1 : Math.sin(half) / half;
  return Math.sin(omega * time.day + phase) * damp;
}

/** An atom's volume multiplier at a time (1 for an atom with neither a trend nor a wave). */
export function atomVolume(atom: Atom, time: CellTime): number {
  const trend = atom.attrs?.trend ?? 0;
  const linear = trend === 0 ? 1 : Math.max(0.2, 1 + (trend * (time.day - TREND_ANCHOR)) / 365);
  const wave = waveOf(atom);
  if (!wave) return linear;
  return linear * Math.exp(wave.amplitude * (0.75 * meanSin(wave.omega1, wave.phase1, time) + 0.5 * meanSin(wave.omega2, wave.phase2, time)));
}

/** Whether any atom of a family moves over time (families that do not are left out of the volume product). */
export function moves(family: Family): boolean {
  return family.atoms.some((a) => (a.attrs?.trend ?? 0) !== 0 || (a.attrs?.wave ?? 0) !== 0);
}

const familyVolumeCache = new WeakMap<Family, Map<string, Float64Array>>();

/** Every atom's volume multiplier at a time (memoised per family: a planted event asks for each day of a report). */
function familyVolumes(family: Family, time: CellTime): Float64Array {
  let byTime = familyVolumeCache.get(family);
  if (!byTime) familyVolumeCache.set(family, (byTime = new Map()));
  const key = `${time.day}|${time.span}`;
  let out = byTime.get(key);
  if (!out) {
    out = Float64Array.from(family.atoms, (atom) => atom.share * atomVolume(atom, time));
    if (byTime.size > 1024) byTime.clear();
    byTime.set(key, out);
  }
  return out;
}

/**
 * Share of the families' volume at `time` (each atom weighted by the product of `attrs`, e.g. clicks by CTR,
 * key events by conversion tilt) that holds the conditions: families are independent, so it is the product of each
 * owning family's own share. A condition no family owns matches nothing.
 */
export function segmentShare(families: readonly Family[], where: EffectWhere, time: CellTime, attrs: readonly string[] = []): number {
  if (where.some(([d]) => !families.some((f) => f.dims.includes(d)))) return 0;
  let share = 1;
  for (const family of families) {
    const conditions = where.filter(([d]) => family.dims.includes(d));
    if (!conditions.length) continue;
    const volumes = familyVolumes(family, time);
    const weight = (i: number) => {
      let w = volumes[i]!;
      for (const name of attrs) w *= family.atoms[i]!.attrs?.[name] ?? 1;
      return w;
    };
    const total = familyTotal(family, attrs, volumes, weight);
    let matched = 0;
    for (const i of matchingAtoms(family, conditions)) matched += weight(i);
    share *= total > 0 ? matched / total : 0;
  }
  return share;
}

const matchCache = new WeakMap<Family, Map<string, number[]>>();

/** The indices of a family's atoms holding the conditions (memoised: a query's two atoms among 45,000). */
function matchingAtoms(family: Family, conditions: EffectWhere): number[] {
  let byWhere = matchCache.get(family);
  if (!byWhere) matchCache.set(family, (byWhere = new Map()));
  const key = JSON.stringify(conditions);
  let out = byWhere.get(key);
  if (!out) {
    const tests = conditions.map(([d, v]) => [family.dims.indexOf(d), v.toLowerCase()] as const);
    out = [];
    family.atoms.forEach((atom, i) => {
      if (atomHolds(atom, tests)) out!.push(i);
    });
    if (byWhere.size > 4096) byWhere.clear();
    byWhere.set(key, out);
  }
  return out;
}

const totalCache = new WeakMap<Float64Array, Map<string, number>>();

function familyTotal(family: Family, attrs: readonly string[], volumes: Float64Array, weight: (i: number) => number): number {
  let byAttrs = totalCache.get(volumes);
  if (!byAttrs) totalCache.set(volumes, (byAttrs = new Map()));
  const key = attrs.join();
  let total = byAttrs.get(key);
  if (total === undefined) {
    total = 0;
    for (let i = 0; i < family.atoms.length; i++) total += weight(i);
    byAttrs.set(key, total);
  }
  return total;
}
