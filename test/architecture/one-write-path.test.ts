// One write path: the store's write functions are imported by the write service (src/writes) and nowhere else,
// except the places named here with the reason; and API keys are made, rotated and revoked through it. A surface
// that wrote around the service would skip its role check and its audit entry, so this fails instead.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

/** The store's functions that change what people see or may do (by module). */
const STORE_WRITES: Record<string, readonly string[]> = {
  'store/projects-repository.ts': ['createProject', 'updateProjectSettings', 'updateProjectBrandTerms', 'grantProjectAccess', 'revokeProjectAccess'],
  'store/project-admin-repository.ts': ['updateProject', 'deleteProject'],
  'store/project-roles-repository.ts': ['putProjectRole', 'changeProjectRole'],
  'store/data-sources-repository.ts': ['connectSource', 'disconnectSource', 'setPropertySettings', 'setSourceStatus'],
  'store/funnels-repository.ts': ['createFunnel', 'deleteFunnel'],
  'store/funnel-edits-repository.ts': ['editFunnel', 'renameFunnel'],
  'store/invites-repository.ts': ['createInvite', 'claimInvite', 'claimInviteByDigest', 'deleteInvite', 'deleteOpenProjectInvites'],
  'store/accounts-repository.ts': ['createAccount', 'setAccountPassword'],
  'store/account-roles-repository.ts': ['setRole', 'claimOwnership'],
  'store/audit-repository.ts': ['appendAudit'],
  'store/api-keys-repository.ts': ['insertApiKey', 'revokeApiKey', 'markApiKeyRotated'],
  'store/oauth-grants-repository.ts': ['revokeGrant'],
  'store/setup-codes-repository.ts': ['issueSetupCode', 'clearSetupCodes'],
};

/** Who else may use them, and why. */
const EXCEPTIONS: Record<string, { names: readonly string[]; why: string }> = {
  'demo/seed-demo.ts': { names: ['createAccount', 'createProject', 'grantProjectAccess', 'setPropertySettings', 'setAccountPassword', 'appendAudit'], why: 'seeds the demo at start (no one acts; its connections go through the write service as the server at start)' },
  'demo/demo-funnels.ts': { names: ['createFunnel'], why: 'seeds the demo funnels' },
  'demo/retire-demo.ts': { names: ['setAccountPassword', 'appendAudit', 'revokeGrant'], why: 'retires the demo when the sandbox is turned off' },
  'loaders/connected-source.ts': { names: ['setSourceStatus', 'setPropertySettings'], why: "records a provider's last answer (no one acts)" },
  'auth/api-keys.ts': { names: ['insertApiKey', 'revokeApiKey', 'markApiKeyRotated', 'appendAudit'], why: 'the key service writes a key with its audit entry; writes/key-writes.ts is its only caller (checked below)' },
  'auth/oauth/oauth-server.ts': { names: ['revokeGrant'], why: "revokes an account's grant (tests; the account page goes through writes/key-writes.ts)" },
  'auth/oauth/token-grants.ts': { names: ['revokeGrant'], why: 'the authorization server revokes a grant on code replay and refresh-token reuse' },
  'runtime.ts': { names: ['issueSetupCode'], why: 'prints the first-run setup code at start' },
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Named imports of each module a file imports, by the imported module's path under src/. */
function namedImports(file: string): Map<string, string[]> {
  const text = readFileSync(file, 'utf8');
  const imports = new Map<string, string[]>();
  for (const match of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'(\.[^']+)'/g)) {
    const target = relative(SRC, resolve(dirname(file), match[2]!));
    const names = match[1]!.split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!).filter(Boolean);
    imports.set(target, [...(imports.get(target) ?? []), ...names]);
  }
  return imports;
}

describe('one write path', () => {
  it('only the write service imports the store’s write functions (and the named exceptions)', () => {
    const found: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const path = relative(SRC, file);
      if (path.startsWith('writes/') || path.startsWith('store/')) continue;
      for (const [module, names] of namedImports(file)) {
        const writes = STORE_WRITES[module] ?? [];
        for (const name of names.filter((n) => writes.includes(n))) {
          if (!EXCEPTIONS[path]?.names.includes(name)) found.push(`${path} imports ${name} from ${module}`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('the exceptions are still needed (a stale one would hide a new use)', () => {
    for (const [path, { names }] of Object.entries(EXCEPTIONS)) {
      const imported = [...namedImports(join(SRC, path)).entries()].flatMap(([module, list]) => list.filter((n) => (STORE_WRITES[module] ?? []).includes(n)));
      expect(imported.sort(), path).toEqual([...names].sort());
    }
  });

  it('API keys are made, rotated and revoked through the write service', () => {
    const found = sourceFiles(SRC)
      .map((file) => relative(SRC, file))
      .filter((path) => !path.startsWith('writes/') && !path.startsWith('auth/') && !path.startsWith('demo/'))
      .filter((path) => /\bapiKeys\.(create|revoke|rotate)\(|\bcreateApiKeyService\([^)]*\)\.(create|revoke|rotate)\(/.test(readFileSync(join(SRC, path), 'utf8')));
    expect(found).toEqual([]);
  });
});
