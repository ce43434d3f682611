// The caller's IP for per-IP limits: the socket address from srvx/node, never a spoofable header.
import type { H3Event } from 'h3';

export function clientIpOf(event: H3Event): string {
  const ip = (event.req as { ip?: string }).ip;
  return ip && ip.length > 0 ? ip : 'local';
}
