// How much each kind of segment wanders on its own (the atom attributes own-trends.ts reads): a country, a device,
// a channel, a landing page and a top query each get a seeded wave, smaller segments and fickler channels a larger
// one. GA and the search engines use the same seeds, so Germany's organic search follows Germany's sessions.
import { hashString, unit } from './hash.ts';

export interface Course {
  trend: number;
  wave: number;
  waveSeed: number;
}

/** A country's own course: its yearly trend and a wave of 4–12% (the smaller the market, the larger). */
export function countryCourse(siteSeed: number, index: number, name: string, weight: number): Course {
  return {
    trend: 0.3 * (unit(siteSeed, 4000 + index, 3) - 0.45),
    wave: 0.04 + 0.08 * (1 - Math.min(1, weight / 12)) * (0.6 + 0.8 * unit(siteSeed, 4100 + index)),
    waveSeed: hashString(`country:${name}`, siteSeed),
  };
}

/** Mobile keeps growing, desktop slowly shrinks; each wanders a little around that. */
export function deviceCourse(siteSeed: number, category: string): Course {
  return {
    trend: category === 'mobile' ? 0.08 : category === 'tablet' ? -0.05 : -0.06,
    wave: category === 'tablet' ? 0.06 : 0.03,
    waveSeed: hashString(`device:${category}`, siteSeed),
  };
}

const CHANNEL_WAVE: Record<string, number> = { 'Organic Search': 0.04, Direct: 0.05, Email: 0.12, 'Paid Search': 0.1, 'Organic Social': 0.14, Referral: 0.1 };

/** Campaign-driven channels swing more than search and direct traffic. */
export function channelCourse(siteSeed: number, channel: string, source: string): Course {
  return { trend: 0, wave: CHANNEL_WAVE[channel] ?? 0.1, waveSeed: hashString(`source:${source}`, siteSeed) };
}

/** A landing page's own course (pages people arrive on come and go). */
export function landingCourse(siteSeed: number, path: string): Course {
  return { trend: 0, wave: 0.07, waveSeed: hashString(`landing:${path}`, siteSeed) };
}

/** The top queries wander too; the long tail's changes are sampling noise. */
export function queryCourse(siteSeed: number, query: string, rank: number): Course | undefined {
  return rank < 300 ? { trend: 0, wave: 0.1, waveSeed: hashString(`query:${query}`, siteSeed) } : undefined;
}
