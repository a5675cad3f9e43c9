// `npm test`: compiles the TypeScript tests with esbuild, starts the real
// server binary on a free port with a temporary SQLite database, or the
// database PLYYARD_TEST_DB names (unless PLYYARD_URL points at a running
// server), runs every test with node's test runner, then stops the server
// (showing its last log lines if a test failed).
//
// Env: PLYYARD_BIN (default ../target/debug/plyyard), PLYYARD_URL (the
//      tests that run the binary on the site's database, moderation's, are
//      skipped then: they get PLYYARD_TEST_BIN and PLYYARD_TEST_DB_URL),
//      PLYYARD_PUZZLES_CSV (lichess's puzzle CSV imported into the test
//      database; default <repo>/../shared/data/puzzles/lichess-sample.csv),
//      PLYYARD_TEST_DB=<database URL> (e.g. postgres://…; default a fresh
//      SQLite file), PLYYARD_SERVER_ARGS="--flag value …" (space-separated,
//      added to the server's command line, e.g. rate-limit settings),
//      PLYYARD_TESTS=unit to run only the unit tests (no server, no browser),
//      PLYYARD_TEST_NAME=<regexp> to run only the tests whose name matches.
import { build } from 'esbuild';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// One folder per run: several runs may share a working tree.
const outdir = join(web, '.test-build', String(process.pid));
const only = process.env.PLYYARD_TESTS ?? 'all';

const entries = [];
for (const kind of only === 'unit' ? ['unit'] : ['unit', 'browser']) {
  for (const f of readdirSync(join(web, 'tests', kind))) {
    if (f.endsWith('.test.ts')) entries.push(join(web, 'tests', kind, f));
  }
}
rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: web,
  entryPoints: entries,
  outdir,
  outbase: join(web, 'tests'),
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'inline',
  logLevel: 'warning',
});
const files = entries.map((e) => join(outdir, e.slice(join(web, 'tests').length + 1).replace(/\.ts$/, '.mjs')));

let server = null;
let tmp = null;
/** Characters of the server's log kept to show when a test fails. */
const SERVER_LOG_TAIL = 64 * 1024;
let serverTail = '';
/** The server's WARN and ERROR lines (at most SERVER_PROBLEMS_MAX), and the line being received. */
const SERVER_PROBLEMS_MAX = 200;
const serverProblems = [];
let serverLine = '';
const env = { ...process.env, PLYYARD_WEB: web, PLYYARD_SHOTS: resolve(web, '..', 'artifacts', 'screenshots') };
if (only !== 'unit' && !process.env.PLYYARD_URL) {
  const bin = resolve(web, process.env.PLYYARD_BIN ?? '../target/debug/plyyard');
  if (!existsSync(bin)) {
    console.error(`error: server binary ${bin} not found; build it (cargo build -p plyyard) or set PLYYARD_BIN`);
    process.exit(2);
  }
  tmp = mkdtempSync(join(tmpdir(), 'plyyard-web-'));
  const db = process.env.PLYYARD_TEST_DB || `sqlite://${join(tmp, 't.db')}`;
  const extra = (process.env.PLYYARD_SERVER_ARGS ?? '').split(/\s+/).filter(Boolean);
  // Every test signs its users up from 127.0.0.1, more of them than one
  // address may in an hour by default (10); the limit itself is tested by
  // the server's own tests (crates/server/tests/security.rs).
  if (!extra.includes('--limit-signups-per-hour')) extra.push('--limit-signups-per-hour', '100');
  // Likewise every guest looks tables up from 127.0.0.1 (a guest's page
  // polls a private table every 2 s until it sits down).
  if (!extra.includes('--limit-table-lookups-per-minute')) {
    extra.push('--limit-table-lookups-per-minute', '600');
  }
  // And every club is created from 127.0.0.1 (5 a day by default; the
  // limit is the server's to test).
  if (!extra.includes('--limit-clubs-per-day')) extra.push('--limit-clubs-per-day', '100');
  // The puzzle pages need puzzles: lichess's sample, read where the shared
  // data lives beside the repository (never copied into it), imported into
  // the test database before the server starts (idempotent).
  const puzzles = process.env.PLYYARD_PUZZLES_CSV ?? resolve(web, '..', '..', 'shared', 'data', 'puzzles', 'lichess-sample.csv');
  if (existsSync(puzzles)) {
    const r = spawnSync(bin, ['puzzles', 'import', puzzles, '--db', db], { encoding: 'utf8' });
    if (r.status !== 0) {
      console.error(`error: plyyard puzzles import ${puzzles} failed (${r.status}):\n${r.stderr}`);
      process.exit(2);
    }
    console.log(`puzzles imported from ${puzzles}: ${r.stdout.trim()}`);
  } else {
    console.log(`no puzzles imported (${puzzles} not found): the puzzle tests are skipped`);
  }
  server = spawn(bin, ['serve', '--addr', '127.0.0.1:0', '--db', db, ...extra], {
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  // Keep draining stderr so the server never blocks on a full pipe; keep its
  // last lines to show if a test fails.
  server.stderr.on('data', (chunk) => {
    if (process.env.PLYYARD_SERVER_LOG) process.stderr.write(chunk);
    serverTail = (serverTail + chunk).slice(-SERVER_LOG_TAIL);
    // Warnings and errors from the whole run, not only the tail: a failing
    // test's cause is often logged long before the suite ends.
    const lines = (serverLine + chunk).split('\n');
    serverLine = lines.pop() ?? '';
    for (const line of lines) {
      if (/ (WARN|ERROR) /.test(line) && serverProblems.length < SERVER_PROBLEMS_MAX) serverProblems.push(line);
    }
  });
  const url = await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`server did not report its address in 30 s:\n${serverTail}`)), 30_000);
    // Registered after the handler above, so it sees each chunk already in the tail.
    const onData = () => {
      const m = /listening on (http:\/\/[^\s]+)/.exec(serverTail);
      if (m) {
        clearTimeout(timer);
        server.stderr.off('data', onData);
        ok(m[1]);
      }
    };
    server.stderr.on('data', onData);
    server.on('exit', (code) => fail(new Error(`server exited (${code}) before listening:\n${serverTail}`)));
  });
  env.PLYYARD_URL = url;
  // Tests that run the operator's commands on the site's database
  // (`plyyard admin role`) while it runs.
  env.PLYYARD_TEST_BIN = bin;
  env.PLYYARD_TEST_DB_URL = db;
  console.log(`plyyard server at ${url} on ${db.replace(/\/\/[^@/]*@/, '//…@')}${extra.length ? ` with ${extra.join(' ')}` : ''}`);
}

const code = await new Promise((done) => {
  const filter = process.env.PLYYARD_TEST_NAME ? [`--test-name-pattern=${process.env.PLYYARD_TEST_NAME}`] : [];
  const child = spawn(process.execPath, ['--test', '--test-concurrency=1', ...filter, ...files], { stdio: 'inherit', env });
  child.on('exit', (c, sig) => done(c ?? (sig ? 1 : 0)));
});

if (server && code !== 0 && !process.env.PLYYARD_SERVER_LOG) {
  console.error(`\n--- the server's warnings and errors (first ${SERVER_PROBLEMS_MAX}) ---\n${serverProblems.join('\n')}`);
  console.error(`\n--- the server's last log lines ---\n${serverTail}\n--- end of the server's log ---`);
}
if (server) {
  server.kill('SIGTERM');
  await new Promise((r) => {
    const t = setTimeout(() => {
      server.kill('SIGKILL');
      r();
    }, 5000);
    server.on('exit', () => {
      clearTimeout(t);
      r();
    });
  });
}
if (tmp) rmSync(tmp, { recursive: true, force: true });
rmSync(outdir, { recursive: true, force: true });
process.exit(code);
