// The origins a browser reaches this server at, which every cookie, form and Origin check accepts (account pages,
// dashboard, OAuth consent): PUBLIC_URL alone when it names a public address; without PUBLIC_URL, or with a
// loopback one, also the loopback names of the same scheme and port, so a local server answers at localhost and at
// 127.0.0.1 alike (a browser keeps separate cookies per name, so each is its own sign-in).
import { hostname } from 'node:os';
import { publicUrlOf, type Settings } from './settings.ts';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The public URL's origin first (links and redirects name it), then its loopback aliases when they apply. */
export function siteOriginsOf(settings: Settings, machineHostName: string = hostname()): string[] {
  const publicUrl = new URL(publicUrlOf(settings, machineHostName));
  if (settings.PUBLIC_URL !== undefined && !isLoopbackHost(publicUrl.hostname)) return [publicUrl.origin];
  const port = publicUrl.port === '' ? '' : `:${publicUrl.port}`;
  const aliases = LOOPBACK_NAMES.map((name) => `${publicUrl.protocol}//${name}${port}`);
  return [...new Set([publicUrl.origin, ...aliases])];
}
