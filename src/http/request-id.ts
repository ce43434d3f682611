// X-Request-Id: echo a client's id when it is sane (short, printable, no separators that could forge log lines), else mint one.
import { randomUUID } from 'node:crypto';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{8,128}$/;

export function requestIdFrom(headers: Headers): string {
  const given = headers.get('x-request-id');
  return given && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}
