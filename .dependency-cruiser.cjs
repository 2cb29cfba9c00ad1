/**
 * The house's layer rules, checked by `npm run lint` (README, "Architecture"). Arrows point down:
 *
 *   app (app.ts, main.ts, plugins/)          composition root: builds everything, registers plugins
 *   http/, live/                             the server: error handler, static console, live stream
 *   capabilities (sessions, permissions, …)  one folder each; *.routes.ts is its HTTP edge
 *   events/, processes/                      the event store and bus; spawning agent processes
 *   base (db/, fs/, home/, ids, config, …)   SQLite, confined files, the HTTP kit (route, errors)
 *   contract/                                the API's types and schemas, shared with the console
 *
 * A layer imports only layers below it (or its own). Capabilities may import each other, without
 * cycles; agents/ is the port the others depend on, and each agent's folder stays its own.
 */
const DAEMON = '^daemon/src/';
const TESTS = '(\\.test\\.ts|\\.spec\\.ts)$';
const BASE = `${DAEMON}(db|fs|home)/|${DAEMON}(ids|config|version)\\.ts$|${DAEMON}http/(errors|route|guards|ndjson-stream|app-header)\\.ts$`;
const EVENTS_PROCESSES = `${DAEMON}(events|processes)/`;
const SERVER = `${DAEMON}(http|live)/`;
const APP = `${DAEMON}(app|main|schema)\\.ts$|${DAEMON}plugins/|${DAEMON}http/write-openapi\\.ts$`;
const CAPABILITIES = `${DAEMON}(?!(db|fs|home|events|processes|http|live|plugins|testing)/)[^/]+/`;

/** A rule that a file of `from` imports nothing of any of `to`. */
const down = (name, comment, from, to, pathNot) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from, pathNot: [TESTS, ...(pathNot ?? [])] },
  to: { path: to, pathNot: [BASE] },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'An import cycle: the files of the loop cannot be read, tested or moved one at a time.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-test-code-in-production',
      comment: 'Production code never reaches the test fakes, the test helpers or a test file.',
      severity: 'error',
      // escape-fixture.ts is a test fixture kept beside the isolation tests that use it (only they do).
      from: {
        path: '^(daemon/src|contract|src)/',
        pathNot: [TESTS, `${DAEMON}testing/`, `${DAEMON}isolation/escape-fixture\\.ts$`],
      },
      to: { path: ['^fakes/', '/testing/', TESTS] },
    },
    {
      name: 'contract-imports-nothing',
      comment: 'The contract is the bottom: it imports no daemon, console or fake code.',
      severity: 'error',
      from: { path: '^contract/', pathNot: [TESTS] },
      to: { path: ['^daemon/', '^src/', '^fakes/'] },
    },
    down(
      'base-stays-down',
      'db, fs, home and the HTTP kit know no events, process, capability, server or app.',
      BASE,
      [EVENTS_PROCESSES, CAPABILITIES, SERVER, APP],
    ),
    down(
      'events-processes-stay-down',
      'The event store and the process kit know no capability, server or app.',
      EVENTS_PROCESSES,
      [CAPABILITIES, SERVER, APP],
      [],
    ),
    down(
      'capabilities-below-server',
      "A capability's code knows no server file nor the composition root.",
      CAPABILITIES,
      [SERVER, APP],
    ),
    down('server-below-app', 'The server knows no composition root.', SERVER, [APP], [BASE, APP]),
    {
      name: 'agent-folders-apart',
      comment:
        "An agent's folder never imports another agent's: what they share sits in agents/kit/.",
      severity: 'error',
      from: { path: `${DAEMON}agents/([^/]+)/`, pathNot: [TESTS] },
      to: { path: `${DAEMON}agents/(?!kit/)[^/]+/`, pathNot: [`${DAEMON}agents/$1/`] },
    },
    {
      name: 'agents-need-no-feature',
      comment:
        'The agent port and the agents know no feature: the features depend on them. isolation/ is ' +
        "the agents' confinement kit (sandbox settings, jail, network gates), another room this round.",
      severity: 'error',
      from: { path: `${DAEMON}agents/`, pathNot: [TESTS] },
      to: { path: CAPABILITIES, pathNot: [`${DAEMON}(agents|isolation)/`] },
    },
    {
      name: 'features-reach-agents-through-the-port',
      comment:
        "Only the catalog (agents/catalog.ts) names an agent's folder; the rest reach it by its kind.",
      severity: 'error',
      from: { path: DAEMON, pathNot: [TESTS, `${DAEMON}(agents|testing)/`] },
      to: { path: `${DAEMON}agents/(?!kit/)[^/]+/` },
    },
    {
      name: 'console-core-knows-no-feature',
      comment: "The console's core (shell, API client, routing) never imports a feature folder.",
      severity: 'error',
      from: { path: '^src/app/core/', pathNot: [TESTS] },
      to: { path: '^src/app/(?!core/|shared/)[^/]+/|^src/app/app\\.routes\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.app.json' },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
