// The API key service: issue, verify (with an in-process cache of verified keys), revoke, rotate with grace.
// Verification never reveals why a key failed: malformed, unknown, revoked and expired give the same 401.
import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { AppError, invalidParameter, isDependencyUnavailable, notFound } from '../errors/app-error.ts';
import { OUTAGE_GRACE_MS } from '../store/outage-memo.ts';
import {
  findApiKeyByDigest,
  insertApiKey,
  listApiKeysForAccount,
  markApiKeyRotated,
  revokeApiKey,
  touchApiKeyLastUsed,
} from '../store/api-keys-repository.ts';
import type { ApiKeyRecord } from '../store/api-keys-repository.ts';
import { appendAudit } from '../store/audit-repository.ts';
import { newId } from '../store/ids.ts';
import { getProjectsByKeys } from '../store/projects-repository.ts';
import type { Database } from '../store/schema.ts';
import { assertSlug } from '../store/slugs.ts';
import { createVerifiedKeyCache } from './api-key-cache.ts';
import { digestOf, displayPrefixOf, generateApiKey, hasValidChecksum, KEY_PREFIX, last4Of } from './api-key-format.ts';
import type { Principal } from './principal.ts';
import { DEFAULT_SCOPES, parseScopes } from './scopes.ts';
import type { Scope } from './scopes.ts';

export type ApiKeyStatus = 'active' | 'expired' | 'revoked';
/** A key as shown to its owner: everything but the digest. */
export type ApiKeyView = Omit<ApiKeyRecord, 'digest'> & { status: ApiKeyStatus };

export interface CreateApiKeyOptions {
  name?: string | undefined;
  scopes?: readonly Scope[] | undefined;
  expiresAt?: Date | undefined;
  projectKeys?: readonly string[] | null | undefined;
  rateLimitPerMinute?: number | null | undefined;
  /** The surface the key was made through, for its audit entry (`dashboard`, `cli`, …). */
  via?: string | undefined;
}

export interface IssuedApiKey {
  /** The plaintext key: shown once, never stored. */
  key: string;
  record: ApiKeyView;
}

export interface Logger {
  warn(object: object, message?: string): void;
}

export interface ApiKeyServiceOptions {
  db: Kysely<Database>;
  /** Epoch ms; injectable for tests. */
  clock?: () => number;
  /** How long a verified key is trusted without re-reading it (default 30 s). Local revocation is immediate. */
  cacheTtlMs?: number;
  cacheMaxEntries?: number;
  /** last_used_at is written at most once per this interval per key (default 60 s). */
  lastUsedIntervalMs?: number;
  logger?: Logger;
}

export interface ApiKeyService {
  create(accountId: string, options?: CreateApiKeyOptions): Promise<IssuedApiKey>;
  /** The principal for a valid key; AppError 401 invalid_api_key otherwise. */
  verify(plaintext: string): Promise<Principal>;
  /**
   * The principal of an active key this process verified within the cache TTL, at once; undefined for anything
   * else (then `verify` decides). Keeps a warm request free of promises.
   */
  recognise(plaintext: string): Principal | undefined;
  list(accountId: string): Promise<ApiKeyView[]>;
  /** By key id or display prefix (`sl_live_AbCd`), among the account's keys. */
  revoke(accountId: string, keyIdOrPrefix: string, options?: { via?: string }): Promise<ApiKeyView>;
  rotate(accountId: string, keyIdOrPrefix: string, options?: { graceMs?: number; via?: string }): Promise<IssuedApiKey & { previous: ApiKeyView }>;
  /** Drops a key from this process's cache without notifying listeners (for a pub/sub subscriber). */
  invalidate(keyId: string): void;
  /** Called with the key id whenever this process revokes or rotates a key (for a pub/sub publisher). */
  onInvalidate(listener: (keyId: string) => void): () => void;
  /** Resolves when pending last-used writes are done (tests, graceful shutdown). */
  settle(): Promise<void>;
}

const INVALID_KEY_DETAIL = 'The API key is invalid, expired or revoked.';
export const DEFAULT_ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

function invalidKey(): AppError {
  return new AppError('invalid_api_key', INVALID_KEY_DETAIL, {
    headers: { 'WWW-Authenticate': 'Bearer realm="siteline", error="invalid_token"' },
  });
}

function statusOf(record: ApiKeyRecord, now: number): ApiKeyStatus {
  if (record.revokedAt !== null) return 'revoked';
  if (record.expiresAt !== null && Date.parse(record.expiresAt) <= now) return 'expired';
  return 'active';
}

function toView(record: ApiKeyRecord, now: number): ApiKeyView {
  const { digest: _digest, ...rest } = record;
  return { ...rest, status: statusOf(record, now) };
}

function toPrincipal(record: ApiKeyRecord): Principal {
  return {
    kind: 'api_key',
    accountId: record.accountId,
    credentialId: record.id,
    scopes: new Set(record.scopes as Scope[]),
    projectKeys: record.projectKeys === null ? null : new Set(record.projectKeys),
    ...(record.rateLimitPerMinute === null ? {} : { rateLimitPerMinute: record.rateLimitPerMinute }),
    ...(record.expiresAt === null ? {} : { expiresAt: Date.parse(record.expiresAt) }),
  };
}

export function createApiKeyService(options: ApiKeyServiceOptions): ApiKeyService {
  const { db } = options;
  const clock = options.clock ?? Date.now;
  const touchInterval = options.lastUsedIntervalMs ?? 60_000;
  const logger: Logger = options.logger ?? { warn: (object, message) => console.warn(message, object) };

  const cache = createVerifiedKeyCache({ ttlMs: options.cacheTtlMs ?? 30_000, maxEntries: options.cacheMaxEntries ?? 10_000, outageGraceMs: OUTAGE_GRACE_MS });
  const lastTouch = new Map<string, number>();
  const pending = new Set<Promise<unknown>>();
  const listeners = new Set<(keyId: string) => void>();

  function announce(keyId: string): void {
    cache.invalidate(keyId);
    for (const listener of listeners) {
      try {
        listener(keyId);
      } catch (error) {
        logger.warn({ err: error, keyId }, 'API key invalidation listener failed');
      }
    }
  }

  // One principal per cached record: a known key's requests share it instead of building sets per request.
  const principals = new WeakMap<ApiKeyRecord, Principal>();
  function principalOf(record: ApiKeyRecord): Principal {
    let principal = principals.get(record);
    if (principal === undefined) principals.set(record, (principal = Object.freeze(toPrincipal(record))));
    return principal;
  }

  /** A key this process verified within the TTL is recognised by its digest, without the database. */
  function recognise(plaintext: string): Principal | undefined {
    const now = clock();
    const record = cache.get(digestOf(plaintext), now);
    if (record === undefined || statusOf(record, now) !== 'active') return undefined;
    touch(record, now);
    return principalOf(record);
  }

  function touch(record: ApiKeyRecord, now: number): void {
    const touched = lastTouch.get(record.id);
    if (touched !== undefined && now - touched < touchInterval) return;
    const previous = Math.max(lastTouch.get(record.id) ?? -Infinity, record.lastUsedAt === null ? -Infinity : Date.parse(record.lastUsedAt));
    if (now - previous < touchInterval) return;
    if (lastTouch.size >= 10_000) lastTouch.clear(); // bounded; the SQL condition still throttles
    lastTouch.set(record.id, now);
    const write = touchApiKeyLastUsed(db, record.id, new Date(now), touchInterval)
      .catch((error: unknown) => logger.warn({ err: error, keyId: record.id }, 'Could not record API key use'))
      .finally(() => pending.delete(write));
    pending.add(write);
  }

  async function lookup(plaintext: string, now: number): Promise<ApiKeyRecord | undefined> {
    const digest = digestOf(plaintext);
    const cached = cache.get(digest, now);
    if (cached) return cached;
    const generation = cache.generation();
    let record: ApiKeyRecord | undefined;
    try {
      record = await findApiKeyByDigest(db, digest);
    } catch (error) {
      // Database away: a key verified within the grace period stays good (revocations still arrive by pub/sub);
      // it is not re-cached, so the grace runs from the last real verification.
      const known = isDependencyUnavailable(error) ? cache.stale(digest, now) : undefined;
      if (known) return known;
      throw error;
    }
    if (!record) return undefined;
    // Constant-time confirmation of the match the index lookup found.
    if (!timingSafeEqual(Buffer.from(record.digest, 'hex'), Buffer.from(digest, 'hex'))) return undefined;
    cache.set(record, now, generation);
    return record;
  }

  async function resolveKey(accountId: string, keyIdOrPrefix: string): Promise<ApiKeyRecord> {
    const handle = keyIdOrPrefix.trim();
    const keys = await listApiKeysForAccount(db, accountId);
    const byId = keys.find((k) => k.id === handle);
    if (byId) return byId;
    const prefix = handle.startsWith(KEY_PREFIX) ? handle : KEY_PREFIX + handle;
    const matches = keys.filter((k) => k.prefix === prefix);
    const active = matches.filter((k) => statusOf(k, clock()) === 'active');
    const candidates = active.length > 0 ? active : matches;
    if (candidates.length === 1 && candidates[0]) return candidates[0];
    if (candidates.length > 1) {
      throw invalidParameter('key', `'${handle}' matches several keys (${candidates.map((k) => k.id).join(', ')}); use the key id.`);
    }
    throw notFound(`No API key '${handle}' on this account.`);
  }

  async function validateProjectKeys(projectKeys: readonly string[] | null | undefined): Promise<string[] | null> {
    if (projectKeys === null || projectKeys === undefined) return null;
    const keys = [...new Set(projectKeys.map((k) => assertSlug('projects', k)))].sort();
    if (keys.length === 0) throw invalidParameter('projects', 'A project restriction needs at least one project key.');
    const found = new Set((await getProjectsByKeys(db, keys)).map((p) => p.key));
    const unknown = keys.filter((k) => !found.has(k));
    if (unknown.length > 0) throw invalidParameter('projects', `Unknown project ${unknown.map((k) => `'${k}'`).join(', ')}.`);
    return keys;
  }

  async function issue(
    database: Kysely<Database>,
    accountId: string,
    settings: Pick<ApiKeyRecord, 'name' | 'scopes' | 'projectKeys' | 'rateLimitPerMinute' | 'expiresAt' | 'rotatedFrom'>,
    now: number,
  ): Promise<IssuedApiKey> {
    const key = generateApiKey();
    const record = await insertApiKey(database, {
      ...settings,
      id: newId('key'),
      accountId,
      digest: digestOf(key),
      prefix: displayPrefixOf(key),
      last4: last4Of(key),
      createdAt: new Date(now).toISOString(),
    });
    return { key, record: toView(record, now) };
  }

  return {
    async create(accountId, createOptions = {}) {
      const now = clock();
      const name = (createOptions.name ?? 'API key').trim();
      if (!name || name.length > 100) throw invalidParameter('name', 'The key name must be 1–100 characters.');
      const scopes = parseScopes(createOptions.scopes ?? DEFAULT_SCOPES);
      const { expiresAt, rateLimitPerMinute } = createOptions;
      if (expiresAt !== undefined && (Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() <= now)) {
        throw invalidParameter('expires', 'The expiry must be a valid time in the future.');
      }
      if (rateLimitPerMinute !== undefined && rateLimitPerMinute !== null && (!Number.isInteger(rateLimitPerMinute) || rateLimitPerMinute < 1 || rateLimitPerMinute > 1_000_000)) {
        throw invalidParameter('rateLimitPerMinute', `'${rateLimitPerMinute}' is not a whole number between 1 and 1000000.`);
      }
      const projectKeys = await validateProjectKeys(createOptions.projectKeys);
      const via = createOptions.via === undefined ? {} : { via: createOptions.via };
      // The key and its audit entry together, or neither.
      return db.transaction().execute(async (trx) => {
        const issued = await issue(
          trx,
          accountId,
          { name, scopes, projectKeys, rateLimitPerMinute: rateLimitPerMinute ?? null, expiresAt: expiresAt?.toISOString() ?? null, rotatedFrom: null },
          now,
        );
        await appendAudit(trx, { accountId, action: 'api_key.create', subject: issued.record.id, detail: { scopes, projectKeys, ...via }, now: new Date(now) });
        return issued;
      });
    },

    async verify(plaintext) {
      const known = recognise(plaintext);
      if (known !== undefined) return known;
      // Checksum first: mistyped and made-up keys never reach the database.
      if (!hasValidChecksum(plaintext)) throw invalidKey();
      const now = clock();
      const record = await lookup(plaintext, now);
      if (!record || statusOf(record, now) !== 'active') throw invalidKey();
      touch(record, now);
      return principalOf(record);
    },

    recognise,

    async list(accountId) {
      const now = clock();
      return (await listApiKeysForAccount(db, accountId)).map((record) => toView(record, now));
    },

    async revoke(accountId, keyIdOrPrefix, revokeOptions = {}) {
      const record = await resolveKey(accountId, keyIdOrPrefix);
      const now = clock();
      if (record.revokedAt === null) {
        const detail = revokeOptions.via === undefined ? undefined : { via: revokeOptions.via };
        await db.transaction().execute(async (trx) => {
          await revokeApiKey(trx, record.id, new Date(now));
          await appendAudit(trx, { accountId, action: 'api_key.revoke', subject: record.id, detail, now: new Date(now) });
        });
      }
      announce(record.id);
      return toView({ ...record, revokedAt: record.revokedAt ?? new Date(now).toISOString() }, now);
    },

    async rotate(accountId, keyIdOrPrefix, rotateOptions = {}) {
      const graceMs = rotateOptions.graceMs ?? DEFAULT_ROTATION_GRACE_MS;
      if (!Number.isFinite(graceMs) || graceMs < 0) throw invalidParameter('grace', 'The grace period must be zero or positive.');
      const old = await resolveKey(accountId, keyIdOrPrefix);
      const now = clock();
      if (statusOf(old, now) !== 'active') throw invalidParameter('key', `The key '${old.id}' is ${statusOf(old, now)} and cannot be rotated.`);
      const graceEnd = new Date(now + graceMs).toISOString();
      const oldExpiresAt = old.expiresAt !== null && old.expiresAt < graceEnd ? old.expiresAt : graceEnd;
      const issued = await db.transaction().execute(async (trx) => {
        const settings = { name: old.name, scopes: old.scopes, projectKeys: old.projectKeys, rateLimitPerMinute: old.rateLimitPerMinute, expiresAt: old.expiresAt };
        const next = await issue(trx, accountId, { ...settings, rotatedFrom: old.id }, now);
        await markApiKeyRotated(trx, old.id, oldExpiresAt);
        const via = rotateOptions.via === undefined ? {} : { via: rotateOptions.via };
        await appendAudit(trx, { accountId, action: 'api_key.rotate', subject: old.id, detail: { newKeyId: next.record.id, oldExpiresAt, ...via }, now: new Date(now) });
        return next;
      });
      announce(old.id);
      return { ...issued, previous: toView({ ...old, expiresAt: oldExpiresAt }, now) };
    },

    invalidate(keyId) {
      cache.invalidate(keyId);
    },

    onInvalidate(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    async settle() {
      await Promise.all(pending);
    },
  };
}
