// Bing's WCF JSON dates (`/Date(1741334400000-0800)/`) → the bucket's calendar date, YYYY-MM-DD.

const WCF_DATE = /^\/Date\((-?\d+)([+-])(\d{2})(\d{2})\)\/$|^\/Date\((-?\d+)\)\/$/;
/** .NET `DateTime.MinValue`, Bing's "no date". */
const MIN_VALUE_MS = -62135596800000;

const pacific = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Los_Angeles',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/**
 * The number is UTC epoch ms; the suffix is the server's local offset at that instant (Pacific, -0800 or -0700
 * depending on DST). A bucket starts at local midnight, so the calendar date is the UTC date of `ms + offset` —
 * never the UTC date of `ms` (which is the previous day for every Pacific midnight). Without a suffix, the date is
 * read in America/Los_Angeles, which applies the DST rules of that instant.
 * Returns undefined for MinValue or anything that is not a WCF date.
 */
export function parseBingDate(value: string): string | undefined {
  const match = WCF_DATE.exec(value);
  if (match === null) return undefined;
  const [, withOffset, sign, hh, mm, bare] = match;
  const ms = Number(withOffset ?? bare);
  if (!Number.isSafeInteger(ms) || ms <= MIN_VALUE_MS) return undefined;
  if (withOffset === undefined) return toPacificDate(ms);
  const offsetMinutes = (sign === '-' ? -1 : 1) * (Number(hh) * 60 + Number(mm));
  return new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 10);
}

export function toPacificDate(ms: number): string {
  const parts = pacific.formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}
