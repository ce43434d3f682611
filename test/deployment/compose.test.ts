// docker-compose.yml and the Dockerfile, checked structurally (Docker does not run in CI): per-replica data
// volumes, healthchecks everywhere, restart policy, exact image tags, secrets only from the .env file (whose
// example is committed and which git ignores), and a /data the unprivileged user can write.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = resolve(import.meta.dirname, '../..');
const composeText = readFileSync(resolve(root, 'docker-compose.yml'), 'utf8');
const dockerfile = readFileSync(resolve(root, 'Dockerfile'), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  restart?: string;
  command?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  environment?: Record<string, string>;
}
const compose = parse(composeText, { merge: true }) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const services = Object.entries(compose.services);
const replicas = services.filter(([name]) => name.startsWith('siteline-'));

/** Exactly one version, or a digest: `postgres:17.6-bookworm`, `node:24.21.0-slim`, `x@sha256:…`. */
const EXACT_IMAGE = /^[\w./-]+(:\d+\.\d+(\.\d+)?[\w.-]*|@sha256:[0-9a-f]{64})$/;

describe('docker-compose.yml', () => {
  it('runs two replicas, each with its own data volume, sharing the sandbox credentials read-only', () => {
    expect(replicas.map(([name]) => name)).toEqual(['siteline-1', 'siteline-2']);
    const dataVolumes = replicas.map(([, s]) => s.volumes?.find((v) => v.endsWith(':/data'))?.split(':')[0]);
    expect(dataVolumes.every((v) => v !== undefined && v in compose.volumes)).toBe(true);
    expect(new Set(dataVolumes).size).toBe(replicas.length);
    for (const [, s] of replicas) expect(s.volumes).toContain('sandbox-credentials:/data/sandbox-credentials:ro');
  });

  it('every service restarts unless stopped and has a healthcheck; Siteline checks /readyz, the sandbox answers too', () => {
    for (const [name, s] of services) {
      expect(s.restart, name).toBe('unless-stopped');
      expect(s.healthcheck?.test.length, name).toBeGreaterThan(0);
    }
    for (const [, s] of replicas) expect(s.healthcheck!.test.join(' ')).toMatch(/\/(readyz|healthz)/);
    expect(compose.services.sandbox!.healthcheck!.test.join(' ')).toContain('http://127.0.0.1:4010/');
    for (const [, s] of replicas) {
      for (const dependency of ['postgres', 'redis', 'sandbox']) expect(s.depends_on?.[dependency]?.condition).toBe('service_healthy');
    }
  });

  it('pins every pulled image to an exact version; built images come from the Dockerfile', () => {
    for (const [name, s] of services) {
      if (s.build !== undefined) expect(s.image, name).toBe('siteline:local');
      else expect(s.image, name).toMatch(EXACT_IMAGE);
    }
    const from = /^FROM\s+(\S+)/m.exec(dockerfile)?.[1];
    expect(from).toMatch(EXACT_IMAGE);
  });

  it('has no inline secret: secrets are required from .env, which is git-ignored and has a committed example', () => {
    const required = [...composeText.matchAll(/\$\{(\w+):\?[^}]*\}/g)].map((m) => m[1]);
    expect(composeText.match(/\$\{\w+:-/g)).toBeNull(); // no fallback values
    expect(new Set(required)).toEqual(new Set(['POSTGRES_PASSWORD', 'SITELINE_SECRET_KEY']));
    for (const [name, s] of services) {
      for (const [variable, value] of Object.entries(s.environment ?? {})) {
        if (/SECRET|PASSWORD|_KEY$/.test(variable)) expect(value, `${name}.${variable}`).toMatch(/^\$\{\w+:\?/);
        if (variable === 'DATABASE_URL') expect(value).toMatch(/^postgres:\/\/siteline:\$\{POSTGRES_PASSWORD:\?[^}]*\}@/);
      }
    }
    const example = readFileSync(resolve(root, '.env.example'), 'utf8');
    for (const variable of required) expect(example).toMatch(new RegExp(`^${variable}=`, 'm'));
    expect(readFileSync(resolve(root, '.gitignore'), 'utf8').split('\n')).toContain('.env');
    expect(existsSync(resolve(root, '.env'))).toBe(false);
  });
});

describe('Dockerfile', () => {
  it('creates /data (and the sandbox credentials folder) owned by the unprivileged user it runs as', () => {
    const lines = dockerfile.split('\n');
    const chown = lines.findIndex((l) => /^RUN .*mkdir -p \/data\/sandbox-credentials.*chown -R node:node \/data/.test(l));
    const user = lines.findIndex((l) => /^USER node$/.test(l));
    expect(chown).toBeGreaterThan(-1);
    expect(user).toBeGreaterThan(chown);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n\s+CMD .*\/healthz/m);
  });

  it('starts the API the way `npm start` does, environment and V8 flags included (the benchmarks measure that command)', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile);
    expect(cmd).not.toBeNull();
    const start = (JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
    const [, assignments, command] = /^((?:[A-Z_]+=\S+ )*)(.*)$/.exec(start)!;
    expect((JSON.parse(cmd![1]!) as string[]).join(' ')).toBe(command);
    expect(command).toMatch(/^node --max-semi-space-size=\d+ src\/main\.ts$/);
    expect(assignments).toBe('MALLOC_ARENA_MAX=1 NODE_COMPILE_CACHE=node_modules/.cache/node-compile ');
    for (const assignment of assignments!.trim().split(' ')) expect(dockerfile).toMatch(new RegExp(`^ENV ${assignment}$`, 'm'));
  });
});
