// Builds the web app into $PLYYARD_WEB_OUT (default web/dist):
//   index.html, assets/app.js, assets/app.css, assets/favicon.svg, and
//   assets/chunks/{en,fr,ru,ro}-HASH.js: the language tables, split out so
//   that the app loads only the page's language (and others on a switch).
// Used by `npm run build` and by the server's build script.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(process.env.PLYYARD_WEB_OUT || join(here, 'dist'));
const assets = join(out, 'assets');

rmSync(out, { recursive: true, force: true });
mkdirSync(assets, { recursive: true });

const result = await build({
  absWorkingDir: here,
  entryPoints: { app: 'src/main.ts', 'app-style': 'src/style.css' },
  outdir: assets,
  bundle: true,
  minify: true,
  sourcemap: false,
  format: 'esm',
  splitting: true,
  charset: 'utf8',
  chunkNames: 'chunks/[name]-[hash]',
  // The piece sets drawn from fonts (freely licensed, `@fontsource/*`).
  loader: { '.woff2': 'file', '.woff': 'file' },
  assetNames: 'fonts/[name]-[hash]',
  target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});
// esbuild names the CSS after its entry; give it the stable name index.html uses.
const cssOut = join(assets, 'app-style.css');
const css = readFileSync(cssOut);
rmSync(cssOut);
writeFileSync(join(assets, 'app.css'), css);

// The chunks are named by their content; app.js names them, so its hash covers them.
const js = readFileSync(join(assets, 'app.js'));
const version = createHash('sha256').update(js).update(css).digest('hex').slice(0, 12);

const html = readFileSync(join(here, 'src/index.html'), 'utf8').replaceAll('__VERSION__', version);
writeFileSync(join(out, 'index.html'), html);
copyFileSync(join(here, 'src/favicon.svg'), join(assets, 'favicon.svg'));

const size = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(`plyyard web: built ${version} into ${out} (${Math.round(size / 1024)} KiB)`);
