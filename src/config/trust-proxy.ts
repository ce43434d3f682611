// The TRUST_PROXY setting: which peers may tell us the client's address (X-Forwarded-For) and scheme/host. Only named proxy
// addresses or CIDR ranges, or `loopback`; never "everyone", which would let any client pick its own address
// and walk past every per-address limit.
import { isIP } from 'node:net';

/** `false`: trust no forwarded header; `loopback`: a proxy on this host; a list: these addresses and ranges. */
export type TrustProxy = false | 'loopback' | readonly string[];

const CIDR = /^(?<address>[^/]+)(?:\/(?<prefix>\d{1,3}))?$/;

/** Why one TRUST_PROXY entry is unusable, or undefined when it is an IP address or CIDR range. */
function entryProblem(entry: string): string | undefined {
  const match = CIDR.exec(entry);
  const family = match?.groups?.address === undefined ? 0 : isIP(match.groups.address);
  if (family === 0) return `'${entry}' is not an IP address or CIDR range`;
  const prefix = match?.groups?.prefix;
  if (prefix !== undefined && Number(prefix) > (family === 4 ? 32 : 128)) return `'${entry}' has a prefix longer than the address`;
  return undefined;
}

/** Parses the setting; a list of problems when it cannot be used (`true` included, with what to write instead). */
export function parseTrustProxy(value: string): { ok: true; value: TrustProxy } | { ok: false; problems: string[] } {
  const text = value.trim().toLowerCase();
  if (text === '' || text === 'false' || text === '0' || text === 'no' || text === 'off') return { ok: true, value: false };
  if (text === 'loopback') return { ok: true, value: 'loopback' };
  if (text === 'true' || text === '1' || text === 'yes' || text === 'on') {
    return {
      ok: false,
      problems: [
        "'true' is no longer accepted: it let any client choose its own address with X-Forwarded-For. List your proxies' addresses or CIDR ranges (e.g. TRUST_PROXY=10.0.0.0/8,192.168.1.5), or use 'loopback' for a proxy on this host.",
      ],
    };
  }
  const entries = text.split(',').map((entry) => entry.trim()).filter(Boolean);
  const problems = entries.map(entryProblem).filter((problem): problem is string => problem !== undefined);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: entries };
}

