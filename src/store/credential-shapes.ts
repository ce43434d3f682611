// Shape checks for provider credentials before they are sealed: enough to catch the wrong file, never echoing
// secret values in messages.
import { invalidParameter } from '../errors/app-error.ts';
import type { CredentialKind, SourceCredential } from './data-sources-repository.ts';

const REQUIRED_FIELDS: Partial<Record<CredentialKind, readonly string[]>> = {
  service_account: ['client_email', 'private_key'],
  oauth_refresh_token: ['client_id', 'client_secret', 'refresh_token'],
};

/** Validates `text` as a credential of `kind`; JSON is stored flattened and re-serialised. */
export function parseCredential(kind: CredentialKind, text: string): SourceCredential {
  if (kind === 'api_key') {
    const key = text.trim();
    if (!key || /\s/.test(key)) throw invalidParameter('credential', 'The API key file must contain exactly one key, without spaces.');
    return { kind, secret: key };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidParameter('credential', `The ${kind} credential is not valid JSON.`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw invalidParameter('credential', `The ${kind} credential must be a JSON object.`);
  }
  // Google's downloaded OAuth client files nest the client under "installed" or "web"; stored flattened.
  const { installed, web, ...top } = parsed as Record<string, unknown>;
  const nested = installed ?? web;
  const record: Record<string, unknown> = { ...top, ...(nested && typeof nested === 'object' ? nested : {}) };
  const missing = (REQUIRED_FIELDS[kind] ?? []).filter((field) => {
    const value = record[field];
    return typeof value !== 'string' || value.trim() === '';
  });
  if (missing.length > 0) {
    throw invalidParameter('credential', `The ${kind} credential lacks ${missing.map((f) => `'${f}'`).join(', ')}.`);
  }
  if (kind === 'service_account' && 'type' in record && record.type !== 'service_account') {
    throw invalidParameter('credential', `The JSON file is not a service-account key (its "type" is not "service_account").`);
  }
  return { kind, secret: JSON.stringify(record) };
}
