// The layer rules of docs/architecture.md, checked by `npm run lint` (depcruise). No exceptions:
// a rule that needs one is a rule to change here, with its reason in docs/architecture.md.
const ADAPTER_PACKAGES =
  'node_modules/(express|express-session|knex|knex-pglite|pg|@electric-sql/pglite|bullmq|ioredis|grant|pino|pino-pretty|prom-client|rate-limiter-flexible|@bull-board/.*|pdfkit|standardwebhooks)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'kernel-depends-on-nothing',
      comment: 'src/kernel is shared by everything, so it imports nothing else of src/.',
      severity: 'error',
      from: { path: '^src/kernel/' },
      to: { path: '^src/', pathNot: '^src/kernel/' },
    },
    {
      name: 'domain-knows-no-frameworks',
      comment: "A feature's domain decides; express, knex, BullMQ, Redis, grant, pino, prom-client and vendor SDKs are adapters.",
      severity: 'error',
      from: { path: '^src/features/[^/]+/domain/' },
      to: { path: ADAPTER_PACKAGES },
    },
    {
      name: 'domain-uses-no-adapters',
      comment: "A feature's domain reaches effects through its ports: nothing from platform/, connectors/ or the composition root.",
      severity: 'error',
      from: { path: '^src/features/[^/]+/domain/' },
      to: { path: '^src/(platform|connectors|composition|standalone)/|^src/(plugin|index)\\.ts$' },
    },
    {
      name: 'domain-stays-in-its-feature',
      comment: 'Another feature is reached through its domain (public services, ports, events), never its storage, http or jobs.',
      severity: 'error',
      from: { path: '^src/features/([^/]+)/domain/' },
      to: { path: '^src/features/[^/]+/', pathNot: ['^src/features/$1/', '^src/features/[^/]+/domain/'] },
    },
    {
      name: 'platform-knows-no-features',
      comment: 'Shared adapters serve every feature and know none of them.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/(features|connectors|composition|standalone)/|^src/(plugin|index)\\.ts$' },
    },
    {
      name: 'only-registration-wires',
      comment:
        "The composition root (plugin.ts, src/composition/, each feature's register.ts) is the only place that knows concrete classes of other folders' wiring.",
      severity: 'error',
      from: { pathNot: '^src/(plugin\\.ts|composition/|features/[^/]+/register[^/]*\\.ts|standalone/)' },
      to: { path: '^src/(composition/|features/[^/]+/register[^/]*\\.ts|platform/composition/)' },
    },
    {
      name: 'nothing-imports-the-standalone-host',
      comment: 'The reference host is one user of the plugin: only its own files (and bin/) import it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/standalone/' },
      to: { path: '^src/standalone/' },
    },
    {
      name: 'no-circular',
      comment: 'Import cycles make load order matter (madge checks the compiled output too).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|src/widget)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['cjs', 'es6'],
  },
};
