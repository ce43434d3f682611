// .NET JSON dates as Bing's WCF service writes them: "/Date(<UTC ms>-0800)/" with the Pacific offset in force.
import { PACIFIC, formatOffset, offsetMinutes, zonedMidnightMs } from '../data/calendar.ts';

/** The Pacific midnight that starts `day`, in Bing's format (DST-aware: -0700 in summer). */
export function bingDate(day: number): string {
  const ms = zonedMidnightMs(day, PACIFIC);
  return `/Date(${ms}${formatOffset(offsetMinutes(ms, PACIFIC))})/`;
}

/** WCF escapes every slash on the wire (`\/Date(...)\/`, `https:\/\/...`); JSON decoders undo it. */
export function wcfJson(body: unknown): string {
  return JSON.stringify(body).replaceAll('/', '\\/');
}
