// The factorised data model: a breakdown is the product of independent "families" of dimension values (geo,
// device, page, ...), each a list of weighted atoms. A report apportions each time cell's totals over that
// product, so breakdowns sum exactly to totals and nothing is ever enumerated event by event.
import { apportion } from './apportion.ts';
import { addDeltas } from './cell-deltas.ts';
import { mix, mix2, hashString } from './hash.ts';
import { keepWithin, sampleNoise } from './split-rules.ts';
import { atomHolds, type Atom, type EffectWhere, type Family } from './atoms.ts';
import { atomVolume, moves, type CellTime } from './own-trends.ts';

export type { Atom, EffectWhere, Family } from './atoms.ts';

interface Group {
  values: string[];
  share: number;
  attrs: Record<string, number>;
  /** The group's atoms that move over time (own trend or wave), and the share of those that do not. */
  moving: Atom[];
  still: number;
}

/** The combinations one report needs: a cartesian product of grouped families, heaviest first. */
export interface ComboTable {
  dims: readonly string[];
  size: number;
  weights: Float64Array;
  hashes: Uint32Array;
  value(combo: number, dimIndex: number): string;
  attr(name: string): Float64Array;
  /** Product of an attribute over the broken-down families only (undefined when none of them has it). */
  ownAttr(name: string): Float64Array | undefined;
  /** Per combination, the share of its weight whose atoms hold every condition (a planted effect's reach). */
  matchShare(where: EffectWhere): Float64Array;
  /** Per combination, how its volume has moved at a time (its segments' own trends); undefined when nothing moves. */
  volume(time: CellTime): Float64Array | undefined;
}

/**
 * A planted change of one time cell. With `delta` (whole numbers per metric) the change is added: each metric's
 * delta goes to the combinations the conditions reach, in proportion to what they have, and every other
 * combination keeps its unplanted part exactly. Without it, the matching part of each combination is multiplied by
 * `factor` — for means that are not split (the position sum through a worse rank: `keys`), and for a query's
 * impressions moving between its own pages (cannibalisation).
 */
export interface CellEffect {
  where: EffectWhere;
  factor: number;
  keys?: readonly string[];
  delta?: Readonly<Record<string, number>>;
}

const groupIndexCache = new WeakMap<readonly Group[], Map<string, number>>();


/** Share of a family's atoms holding the conditions, per group of `groupDims` (one group when none), optionally weighted by an attribute. */
function familyMatch(family: Family, groupDims: readonly string[], groups: readonly Group[], conditions: EffectWhere, attr?: string): Float64Array {
  const tests = conditions.map(([d, v]) => [family.dims.indexOf(d), v.toLowerCase()] as const);
  const matched = new Float64Array(Math.max(1, groups.length));
  if (!groupDims.length) {
    let total = 0;
    for (const atom of family.atoms) {
      const w = atom.share * (attr ? (atom.attrs?.[attr] ?? 1) : 1);
      total += w;
      if (atomHolds(atom, tests)) matched[0]! += w;
    }
    matched[0] = total > 0 ? matched[0]! / total : 0;
    return matched;
  }
  const positions = groupDims.map((d) => family.dims.indexOf(d));
  let index = groupIndexCache.get(groups);
  if (!index) groupIndexCache.set(groups, (index = new Map(groups.map((g, i) => [g.values.join('\u0001'), i]))));
  for (const atom of family.atoms) {
    if (!atomHolds(atom, tests)) continue;
    const g = index.get(positions.map((p) => atom.values[p]!).join('\u0001'));
    if (g !== undefined) matched[g]! += atom.share;
  }
  groups.forEach((g, i) => (matched[i] = g.share > 0 ? matched[i]! / g.share : 0));
  return matched;
}



/**
 * Attributes of "reach" families (events, pages): a session can have several of their values, so users and
 * sessions per value are reach (`reach`: the share of sessions with the value) rather than a share of a partition
 * (`rshare`). Grouped atoms combine as a union and a sum, not as a weighted mean.
 */
export const REACH = 'reach';
export const REACH_SHARE = 'rshare';
/** Marks a reach family whose values are viewed (pages): sessions per value never exceed its views. */
export const VIEWED = 'viewed';

const groupCache = new WeakMap<Family, Map<string, Group[]>>();
const meanCache = new WeakMap<Family, Record<string, number>>();

function groupsOf(family: Family, dims: readonly string[]): Group[] {
  let byDims = groupCache.get(family);
  if (!byDims) groupCache.set(family, (byDims = new Map()));
  const cacheKey = dims.join('\u0001');
  const cached = byDims.get(cacheKey);
  if (cached) return cached;
  const positions = dims.map((d) => family.dims.indexOf(d));
  const names = attrNames(family);
  const map = new Map<string, Group>();
  for (const atom of family.atoms) {
    const values = positions.map((p) => atom.values[p]!);
    const key = values.join('\u0001');
    let g = map.get(key);
    if (!g) map.set(key, (g = { values, share: 0, attrs: {}, moving: [], still: 0 }));
    g.share += atom.share;
    if ((atom.attrs?.trend ?? 0) !== 0 || (atom.attrs?.wave ?? 0) !== 0) g.moving.push(atom);
    else g.still += atom.share;
    for (const name of names) {
      const v = atom.attrs?.[name] ?? 1;
      if (name === REACH) g.attrs[name] = 1 - (1 - (g.attrs[name] ?? 0)) * (1 - v);
      else if (name === REACH_SHARE) g.attrs[name] = (g.attrs[name] ?? 0) + v;
      else g.attrs[name] = (g.attrs[name] ?? 0) + v * atom.share;
    }
  }
  const groups = [...map.values()];
  for (const g of groups) {
    for (const name of names) if (name !== REACH && name !== REACH_SHARE) g.attrs[name] = g.share > 0 ? g.attrs[name]! / g.share : 1;
  }
  groups.sort((a, b) => b.share - a.share || (a.values.join() < b.values.join() ? -1 : 1));
  byDims.set(cacheKey, groups);
  return groups;
}

function attrNames(family: Family): string[] {
  const names = new Set<string>();
  for (const atom of family.atoms) for (const name of Object.keys(atom.attrs ?? {})) names.add(name);
  return [...names];
}

/** Share-weighted mean of each attribute over the whole family (used when the family is not broken down). */
function familyMeans(family: Family): Record<string, number> {
  let means = meanCache.get(family);
  if (!means) {
    means = { ...groupsOf(family, [])[0]?.attrs };
    meanCache.set(family, means);
  }
  return means;
}

/**
 * Builds the product of the families owning `dims`. Combinations whose weight is below `minWeight` are
 * never generated: they would round to zero anyway, and pruning keeps long-tail × long-tail reports fast.
 */
export function buildComboTable(families: readonly Family[], dims: readonly string[], minWeight = 0): ComboTable {
  const involved: { family: Family; dims: string[]; groups: Group[] }[] = [];
  for (const family of families) {
    const own = dims.filter((d) => family.dims.includes(d));
    if (own.length) involved.push({ family, dims: own, groups: groupsOf(family, own) });
  }
  const where = dims.map((d) => {
    const f = involved.findIndex((x) => x.dims.includes(d));
    if (f < 0) throw new Error(`no family owns dimension ${d}`);
    return { f, pos: involved[f]!.dims.indexOf(d) };
  });
  const picks: number[][] = involved.map(() => []);
  const weights: number[] = [];
  const maxRest = involved.map((_, i) => involved.slice(i + 1).reduce((acc, x) => acc * (x.groups[0]?.share ?? 0), 1));
  const current: number[] = [];
  const walk = (level: number, weight: number) => {
    if (level === involved.length) {
      weights.push(weight);
      for (let i = 0; i < level; i++) picks[i]!.push(current[i]!);
      return;
    }
    const groups = involved[level]!.groups;
    for (let g = 0; g < groups.length; g++) {
      const w = weight * groups[g]!.share;
      if (w * maxRest[level]! < minWeight && weights.length > 0) break; // groups are sorted: the rest are lighter
      current[level] = g;
      walk(level + 1, w);
    }
  };
  walk(0, 1);
  const size = weights.length;
  const pickArrays = picks.map((p) => Int32Array.from(p));
  const hashes = new Uint32Array(size);
  const groupHashes = involved.map((x) => x.groups.map((g) => hashString(g.values.join('\u0001'))));
  for (let c = 0; c < size; c++) {
    let h = 17;
    for (let f = 0; f < involved.length; f++) h = mix(h, groupHashes[f]![pickArrays[f]![c]!]!);
    hashes[c] = h;
  }
  const attrCache = new Map<string, Float64Array>();
  return {
    dims,
    size,
    weights: Float64Array.from(weights),
    hashes,
    value: (combo, dimIndex) => {
      const w = where[dimIndex]!;
      return involved[w.f]!.groups[pickArrays[w.f]![combo]!]!.values[w.pos]!;
    },
    attr: (name) => {
      let out = attrCache.get(name);
      if (out) return out;
      let constant = 1;
      for (const family of families) if (!involved.some((x) => x.family === family)) constant *= familyMeans(family)[name] ?? 1;
      out = new Float64Array(size).fill(constant);
      for (let f = 0; f < involved.length; f++) {
        const groups = involved[f]!.groups;
        const pick = pickArrays[f]!;
        for (let c = 0; c < size; c++) out[c]! *= groups[pick[c]!]!.attrs[name] ?? 1;
      }
      attrCache.set(name, out);
      return out;
    },
    ownAttr: (name) => {
      const owning = involved.filter((x) => x.groups.some((g) => g.attrs[name] !== undefined));
      if (owning.length === 0) return undefined;
      const cacheKey = `own:${name}`;
      let out = attrCache.get(cacheKey);
      if (out) return out;
      out = new Float64Array(size).fill(1);
      for (const x of owning) {
        const f = involved.indexOf(x);
        const pick = pickArrays[f]!;
        for (let c = 0; c < size; c++) out[c]! *= x.groups[pick[c]!]!.attrs[name] ?? 1;
      }
      attrCache.set(cacheKey, out);
      return out;
    },
    matchShare: (where) => {
      const cacheKey = `match:${JSON.stringify(where)}`;
      let out = attrCache.get(cacheKey);
      if (out) return out;
      out = new Float64Array(size).fill(1);
      for (const family of families) {
        const conditions = where.filter(([d]) => family.dims.includes(d));
        if (!conditions.length) continue;
        const f = involved.findIndex((x) => x.family === family);
        if (f < 0) {
          const constant = familyMatch(family, [], [], conditions)[0]!;
          for (let c = 0; c < size; c++) out[c]! *= constant;
          continue;
        }
        const matched = familyMatch(family, involved[f]!.dims, involved[f]!.groups, conditions);
        const pick = pickArrays[f]!;
        for (let c = 0; c < size; c++) out[c]! *= matched[pick[c]!]!;
      }
      // A condition no family owns matches nothing.
      if (where.some(([d]) => !families.some((family) => family.dims.includes(d)))) out.fill(0);
      attrCache.set(cacheKey, out);
      return out;
    },
    volume: (time) => {
      // Families not broken down move as a whole: the same for every combination, so they cancel in a split.
      const moving = involved.map((x, f) => ({ x, f })).filter(({ x }) => moves(x.family));
      if (moving.length === 0) return undefined;
      const out = new Float64Array(size).fill(1);
      for (const { x, f } of moving) {
        const byGroup = groupVolumes(x.groups, time);
        const pick = pickArrays[f]!;
        for (let c = 0; c < size; c++) out[c]! *= byGroup[pick[c]!]!;
      }
      return out;
    },
  };
}

const volumeCache = new WeakMap<readonly Group[], Map<string, Float64Array>>();

/** Each group's volume multiplier at a time: the share-weighted mean of its atoms' own courses. */
function groupVolumes(groups: readonly Group[], time: CellTime): Float64Array {
  let byTime = volumeCache.get(groups);
  if (!byTime) volumeCache.set(groups, (byTime = new Map()));
  const key = `${time.day}|${time.span}`;
  let out = byTime.get(key);
  if (out) return out;
  out = new Float64Array(groups.length);
  groups.forEach((g, i) => {
    let moved = g.still;
    for (const atom of g.moving) moved += atom.share * atomVolume(atom, time);
    out![i] = g.share > 0 ? moved / g.share : 1;
  });
  if (byTime.size > 2048) byTime.clear();
  byTime.set(key, out);
  return out;
}

/** How one base metric is split over the combinations of a time cell. */
export interface MetricPlan {
  key: string;
  /**
   * root: by combination weight · sub: by the parent's integer parts (never exceeds them) ·
   * super: parent's parts plus the surplus by weight × attr (never below them) · weighted: by weight × attr ·
   * product: not apportioned, parent × attr (a sum for weighted means such as position).
   */
  mode: 'root' | 'sub' | 'super' | 'weighted' | 'product';
  parent?: string;
  /**
   * Over a reach family (events, pages), sessions count once per value they touch (`session`) and users once per
   * value any of their sessions touched (`user`): neither adds up to the total, as in GA.
   */
  reach?: 'session' | 'user';
  /** weighted with a parent: never more than the parent's part (engaged sessions of a value ≤ its sessions). */
  capped?: boolean;
  /** Attribute names whose product tilts the split. */
  attrs?: readonly string[];
}

/** Product of several attributes over the table (cached by the table per name). */
function attrProduct(table: ComboTable, names: readonly string[] | undefined): Float64Array | undefined {
  if (!names || names.length === 0) return undefined;
  if (names.length === 1) return table.attr(names[0]!);
  const out = Float64Array.from(table.attr(names[0]!));
  for (const name of names.slice(1)) {
    const a = table.attr(name);
    for (let c = 0; c < out.length; c++) out[c]! *= a[c]!;
  }
  return out;
}

export interface TimeCell {
  /** The cell's totals, planted changes included (the effects with a `delta` say what was added to them). */
  totals: Readonly<Record<string, number>>;
  /** Seeds the per-cell jitter of combination weights (0 = no jitter). */
  jitterKey: number;
  /** When the cell is: the segments' own trends move its split. */
  time?: CellTime;
  /**
   * Seeds the counting noise of a cell without jitter (a whole date range): a segment's count wobbles by about
   * its square root, as a sample does, so small segments are noisy and large ones are not.
   */
  noiseKey?: number;
  /** Planted changes (sandbox scenarios). */
  effects?: readonly CellEffect[];
  /** Per combination, 1 if the cell is split over it (undefined: all): a cell keeps the combinations its own range keeps. */
  within?: Uint8Array;
}

/** A cell's totals without its planted deltas: what is split before the deltas are added. */
export function unplantedTotals(cell: TimeCell): Readonly<Record<string, number>> {
  if (!cell.effects?.some((e) => e.delta)) return cell.totals;
  const base: Record<string, number> = { ...cell.totals };
  for (const effect of cell.effects) for (const [k, v] of Object.entries(effect.delta ?? {})) base[k] = (base[k] ?? 0) - v;
  return base;
}

/** Per combination, the multiplier of the volume (`''`) and of each keyed metric the multiplying effects ask for. */
function effectMultipliers(table: ComboTable, effects: readonly CellEffect[] | undefined): Map<string, Float64Array> | undefined {
  const multiplying = effects?.filter((e) => !e.delta);
  if (!multiplying?.length) return undefined;
  const out = new Map<string, Float64Array>();
  for (const effect of multiplying) {
    const share = table.matchShare(effect.where);
    for (const key of effect.keys ?? ['']) {
      let m = out.get(key);
      if (!m) out.set(key, (m = new Float64Array(table.size).fill(1)));
      for (let c = 0; c < table.size; c++) m[c]! *= 1 + share[c]! * (effect.factor - 1);
    }
  }
  return out;
}

/**
 * Apportions every time cell over the table and hands each cell's per-combination values to `visit`
 * (arrays are reused between calls: read them, do not keep them). A cell's unplanted totals are split first —
 * so what a planted event does not reach stays exactly as it was — then its planted deltas are added.
 */
export function apportionCells(
  table: ComboTable, cells: readonly TimeCell[], plan: readonly MetricPlan[], jitter: number,
  visit: (cellIndex: number, values: Readonly<Record<string, Float64Array>>) => void,
): void {
  const n = table.size;
  const values: Record<string, Float64Array> = {};
  for (const m of plan) values[m.key] = new Float64Array(n);
  const weighted = new Map<string, Float64Array>();
  const products = new Map<string, Float64Array | undefined>();
  for (const m of plan) products.set((m.attrs ?? []).join(), attrProduct(table, m.attrs));
  for (const m of plan) {
    const key = (m.attrs ?? []).join();
    if ((m.mode === 'super' || (m.mode === 'weighted' && !m.parent)) && !weighted.has(key)) {
      const w = new Float64Array(n);
      const a = products.get(key);
      for (let c = 0; c < n; c++) w[c] = table.weights[c]! * (a ? a[c]! : 1);
      weighted.set(key, w);
    }
  }
  const jittered = new Float64Array(n);
  const scratch = new Float64Array(n);
  const deltaParts = new Float64Array(n);
  const deltaWeights = new Float64Array(n);
  const toReach = reachTransform(table, plan);
  // Counting noise is for partitions (a country's sessions); over pages and events a part is not a count of its own.
  const reach = table.ownAttr(REACH);
  const reachShare = table.ownAttr(REACH_SHARE);
  const sampled = n > 1 && (!reach || !reachShare || reach.every((r, c) => Math.abs(r - reachShare[c]!) < 1e-9));
  for (let t = 0; t < cells.length; t++) {
    const cell = cells[t]!;
    const totals = unplantedTotals(cell);
    const useJitter = jitter > 0 && cell.jitterKey !== 0;
    const key = cell.jitterKey;
    const noise = !useJitter && sampled ? (cell.noiseKey ?? 0) : 0;
    const planted = effectMultipliers(table, cell.effects);
    const volume = planted?.get('');
    // The segments' own trends move what is split by weight (sessions, key events, impressions, …).
    const moved = cell.time ? table.volume(cell.time) : undefined;
    const jitterOnly = (c: number) => (useJitter ? 1 - jitter + 2 * jitter * (mix2(key, table.hashes[c]!) / 4294967296) : 1);
    const within = cell.within;
    const byWeight = (c: number) => (within ? within[c]! : 1) * jitterOnly(c) * (moved ? moved[c]! : 1);
    plan.forEach((m, salt) => {
      if (m.mode === 'product') return; // means follow their parents' final parts, below
      const own = planted?.get(m.key);
      const factor = volume || own ? (c: number) => byWeight(c) * (volume ? volume[c]! : 1) * (own ? own[c]! : 1) : byWeight;
      const out = values[m.key]!;
      const total = Math.max(0, Math.round(totals[m.key] ?? 0));
      switch (m.mode) {
        case 'root': {
          for (let c = 0; c < n; c++) jittered[c] = table.weights[c]! * factor(c);
          if (noise) sampleNoise(jittered, total, noise, salt, table.hashes);
          apportion(total, jittered, out);
          break;
        }
        case 'sub':
          apportion(total, values[m.parent!]!, out, true);
          break;
        case 'super': {
          const parent = values[m.parent!]!;
          let parentSum = 0;
          for (let c = 0; c < n; c++) parentSum += parent[c]!;
          if (total < parentSum) {
            apportion(total, parent, out, true);
            break;
          }
          const w = weighted.get((m.attrs ?? []).join())!;
          for (let c = 0; c < n; c++) jittered[c] = w[c]! * factor(c);
          apportion(total - parentSum, jittered, scratch);
          for (let c = 0; c < n; c++) out[c] = parent[c]! + scratch[c]!;
          break;
        }
        case 'weighted': {
          if (m.parent) {
            // Weighted by the parent's parts (clicks by impressions × CTR): a cell without a parent gets nothing.
            const parent = values[m.parent]!;
            const a = products.get((m.attrs ?? []).join());
            for (let c = 0; c < n; c++) jittered[c] = parent[c]! * (a ? a[c]! : 1) * (own ? own[c]! : 1);
          } else {
            const w = weighted.get((m.attrs ?? []).join())!;
            for (let c = 0; c < n; c++) jittered[c] = w[c]! * factor(c);
          }
          if (noise) sampleNoise(jittered, total, noise, salt, table.hashes);
          apportion(total, jittered, out);
          if (m.capped && m.parent) keepWithin(out, values[m.parent]!, jittered, scratch);
          break;
        }
      }
    });
    if (cell.effects) addDeltas(table, cell.effects, plan, values, deltaParts, deltaWeights);
    for (const m of plan) {
      if (m.mode !== 'product') continue;
      // A mean (position) moves with the cell (`totals[key]` scales it, default 1) and, per combination, with
      // half the cell's jitter: bounded day-to-day noise around each value's own level.
      const own = planted?.get(m.key);
      const out = values[m.key]!;
      const parent = values[m.parent!]!;
      const a = products.get((m.attrs ?? []).join())!;
      const cellScale = cell.totals[m.key] ?? 1;
      for (let c = 0; c < n; c++) out[c] = parent[c]! * a[c]! * cellScale * (useJitter ? 1 + (jitterOnly(c) - 1) / 2 : 1) * (own ? own[c]! : 1);
    }
    toReach?.(totals, values);
    visit(t, values);
  }
}

/**
 * Turns a partition's parts into reach on the broken-down reach families: a value with session reach r and
 * partition share s gets sessions × r / s and, with k sessions per user in the cell, users × (1 − (1 − r)^k) / s.
 */
function reachTransform(table: ComboTable, plan: readonly MetricPlan[]): ((totals: Readonly<Record<string, number>>, values: Record<string, Float64Array>) => void) | undefined {
  const reach = table.ownAttr(REACH);
  const share = table.ownAttr(REACH_SHARE);
  const keys = plan.filter((m) => m.reach !== undefined);
  if (!reach || !share || keys.length === 0) return undefined;
  const n = table.size;
  const sessionFactor = new Float64Array(n);
  const logMiss = new Float64Array(n);
  for (let c = 0; c < n; c++) {
    sessionFactor[c] = share[c]! > 0 ? reach[c]! / share[c]! : 0;
    logMiss[c] = Math.log1p(-Math.min(reach[c]!, 0.999_999));
  }
  const userFactor = new Float64Array(n);
  const viewCap = table.ownAttr(VIEWED);
  // k comes from the unplanted totals, so a planted event does not move the reach of values it does not touch.
  return (totals, values) => {
    const users = totals.totalUsers ?? totals.activeUsers ?? 0;
    const k = users > 0 ? Math.max(1, (totals.sessions ?? users) / users) : 1;
    for (let c = 0; c < n; c++) userFactor[c] = share[c]! > 0 ? -Math.expm1(k * logMiss[c]!) / share[c]! : 0;
    for (const m of keys) {
      const out = values[m.key]!;
      const factor = m.reach === 'session' ? sessionFactor : userFactor;
      for (let c = 0; c < n; c++) out[c] = Math.round(out[c]! * factor[c]!);
    }
    // A session that reaches a page views it at least once.
    const views = viewCap ? values.screenPageViews : undefined;
    if (views) {
      for (const m of keys) {
        if (m.reach !== 'session') continue;
        const out = values[m.key]!;
        for (let c = 0; c < n; c++) if (out[c]! > views[c]!) out[c] = views[c]!;
      }
    }
    // A user counts once however many sessions: never more users than sessions for a value (nor active than total).
    for (const m of keys) {
      const cap = m.reach === 'user' ? values[m.key === 'totalUsers' ? 'sessions' : 'totalUsers'] : undefined;
      if (!cap) continue;
      const out = values[m.key]!;
      for (let c = 0; c < n; c++) if (out[c]! > cap[c]!) out[c] = cap[c]!;
    }
  };
}
