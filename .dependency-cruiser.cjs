// The rooms of src/ and which way imports may point (docs/ARCHITECTURE.md, "Rooms and layers"). `npm run lint`
// runs this with dependency-cruiser: any import pointing up a layer, any import cycle and any reach into the
// sandbox fails the lint. Type-only imports count too (a report importing the GraphQL context's type is still
// a report that knows GraphQL), except the composition root's shape files named below.

/** Top to bottom. A room may import its own layer (sideways) and any layer below, never one above. */
const LAYERS = [
  { name: 'entry', rooms: ['cli'], rootFiles: true },
  { name: 'facades', rooms: ['rest', 'mcp', 'dashboard', 'account', 'docs', 'openapi', 'health', 'observability'] },
  { name: 'services', rooms: ['demo', 'connections', 'deliveries'] },
  { name: 'operations', rooms: ['operations'] },
  { name: 'graphql', rooms: ['graphql'] },
  { name: 'writes', rooms: ['writes'] },
  { name: 'reports', rooms: ['reports'] },
  { name: 'loaders', rooms: ['loaders'] },
  { name: 'sources', rooms: ['cache', 'providers', 'auth'] },
  { name: 'store', rooms: ['store'] },
  { name: 'infrastructure', rooms: ['limits', 'bus', 'http', 'contract'] },
  { name: 'domain', rooms: ['domain'] },
  { name: 'settings', rooms: ['config', 'logging'] },
  { name: 'errors', rooms: ['errors'] },
];

/** Files of the composition root (src/*.ts) that describe shapes the facades are handed: their types may be imported from below. */
const ROOT_SHAPES = '^src/(app-deps|server)[.]ts$';
/** Crypto leaves the store uses to hash what it keeps (they import nothing above the store). */
const STORE_MAY_USE = '^src/auth/(password|oauth/secrets)[.]ts$';

const roomsPattern = (rooms) => `^src/(${rooms.join('|')})/`;
const ROOT_FILES = '^src/[^/]+[.]ts$';

function upwardRules() {
  const rules = [];
  LAYERS.forEach((layer, index) => {
    const above = LAYERS.slice(0, index);
    if (above.length === 0) return;
    const aboveRooms = above.flatMap((l) => l.rooms);
    rules.push({
      name: `no-upward-from-${layer.name}`,
      comment: `${layer.rooms.join(', ')} may not import ${aboveRooms.join(', ')} or the composition root (layers above).`,
      severity: 'error',
      from: { path: roomsPattern(layer.rooms) },
      to: { path: [roomsPattern(aboveRooms), ROOT_FILES], pathNot: [ROOT_SHAPES, layer.name === 'store' ? STORE_MAY_USE : '^$'] },
    });
    rules.push({
      name: `no-root-code-from-${layer.name}`,
      comment: 'Only the types of the root shape files may be imported from below; their code runs at the top.',
      severity: 'error',
      from: { path: roomsPattern(layer.rooms) },
      to: { path: ROOT_SHAPES, dependencyTypesNot: ['type-only'] },
    });
  });
  return rules;
}

module.exports = {
  forbidden: [
    ...upwardRules(),
    {
      name: 'no-circular',
      comment: 'An import cycle ties rooms together: move the shared part down a layer.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'sandbox-stands-alone',
      comment: 'The sandbox knows nothing of Siteline (it could be published on its own).',
      severity: 'error',
      from: { path: '^src/sandbox/' },
      to: { path: '^src/', pathNot: '^src/sandbox/' },
    },
    {
      name: 'sandbox-only-for-cli-and-demo',
      comment: 'Siteline reaches the sandbox over HTTP like a real provider; only the CLI (to start it) and the demo (its catalogue) import it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(sandbox|cli|demo)/' },
      to: { path: '^src/sandbox/' },
    },
    {
      name: 'every-room-is-placed',
      comment: 'A new folder of src/ needs a place in LAYERS (or a rule of its own) before it can be imported.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/[^/]+/', pathNot: [roomsPattern([...LAYERS.flatMap((l) => l.rooms), 'sandbox'])] },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that does not resolve is a broken import.',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    includeOnly: '^src/',
    // Type-only imports are imports too: they are how a lower room learns an upper room's shape.
    tsPreCompilationDeps: true,
    // Node runs .ts directly: imports name the .ts file, packages resolve through their `exports`.
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
    doNotFollow: { path: 'node_modules' },
  },
};
