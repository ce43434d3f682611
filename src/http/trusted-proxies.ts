// Trusted proxies at the server: matching peer addresses against TRUST_PROXY's addresses and CIDR ranges, and
// the option srvx takes to walk X-Forwarded-For hop by hop.
import { BlockList, isIP } from 'node:net';
import type { TrustProxy } from '../config/trust-proxy.ts';

function blockListOf(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

/** Whether a peer address belongs to the trusted proxies (IPv4-mapped IPv6 peers are matched as IPv4). */
export function createProxyMatcher(entries: readonly string[]): (address: string) => boolean {
  const list = blockListOf(entries);
  return (address) => {
    const plain = address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
  };
}

/**
 * The srvx `trustProxy` option. srvx matches a list with `includes`, exactly; an array whose `includes` asks
 * the CIDR matcher gives it ranges without changing its hop-by-hop walk of X-Forwarded-For.
 */
export function toServerTrustProxy(setting: TrustProxy): false | 'loopback' | string[] {
  if (setting === false || setting === 'loopback') return setting;
  const matches = createProxyMatcher(setting);
  return Object.assign([...setting], { includes: (address: string) => matches(address) });
}
