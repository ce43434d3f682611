// Reading and writing the account pages' cookies by hand (web Request/Response, no framework state).

export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export interface CookieOptions {
  maxAgeSec?: number;
  secure: boolean;
  httpOnly?: boolean;
  sameSite?: 'Lax' | 'Strict';
  path?: string;
}

/** Values we write are base64url, so they need no encoding. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${value}`, `Path=${options.path ?? '/'}`, `SameSite=${options.sameSite ?? 'Lax'}`];
  if (options.httpOnly !== false) parts.push('HttpOnly');
  if (options.secure) parts.push('Secure');
  if (options.maxAgeSec !== undefined) parts.push(`Max-Age=${options.maxAgeSec}`);
  return parts.join('; ');
}

/** On https the `__Host-` prefix pins the cookie to this host, path / and Secure (browsers enforce it). */
export function cookieName(base: string, secure: boolean): string {
  return secure ? `__Host-${base}` : base;
}
