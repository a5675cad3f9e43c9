//! Browser test helpers: Chromium through playwright-core, a fresh context per
//! test, and board interaction by square name.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** Base URL of the server under test (set by tests/run.mjs). */
export const BASE = process.env.PLYYARD_URL ?? 'http://127.0.0.1:8080';

/** Where screenshots go: artifacts/screenshots at the repository root (set by tests/run.mjs). */
export const SHOTS = process.env.PLYYARD_SHOTS ?? resolve(process.cwd(), '../artifacts/screenshots');

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

let browser: Browser | null = null;

/** The shared Chromium instance (Debian's /usr/bin/chromium). */
export async function getBrowser(): Promise<Browser> {
  browser ??= await chromium.launch({
    executablePath: process.env.PLYYARD_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return browser;
}

/** Closes the shared browser (call in `after`). */
export async function closeBrowser(): Promise<void> {
  await browser?.close();
  browser = null;
}

/** A fresh context (own cookies, so its own anonymous player) and page. */
export async function newPage(opts: { viewport?: { width: number; height: number }; locale?: string } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const b = await getBrowser();
  const context = await b.newContext({
    baseURL: BASE,
    viewport: opts.viewport ?? DESKTOP,
    locale: opts.locale ?? 'en-US',
    acceptDownloads: true,
    hasTouch: false,
  });
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // Chromium reports every Content-Security-Policy violation (an inline
  // script or style, a style attribute, a foreign connection) on the console.
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) errors.push(`CSP violation: ${m.text()}`);
  });
  (page as Page & { jsErrors?: string[] }).jsErrors = errors;
  return { context, page };
}

/** Switches the interface language and waits until the new table is loaded and shown (tables load on demand). */
export async function selectLang(page: Page, lang: string): Promise<void> {
  await page.getByTestId('lang-select').selectOption(lang);
  await page.locator(`html[lang="${lang}"]`).waitFor({ state: 'attached' });
}

/** Collects every console error of `page` from now on, failed requests included (Chromium logs each 4xx/5xx answer). */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${m.text()} (${m.location().url})`);
  });
  return errors;
}

/** Uncaught page errors and Content-Security-Policy violations seen so far. */
export function jsErrors(page: Page): string[] {
  return (page as Page & { jsErrors?: string[] }).jsErrors ?? [];
}

/** Closes a test's context after checking its pages threw no uncaught errors and broke no CSP rule. */
export async function done(context: BrowserContext, ...pages: Page[]): Promise<void> {
  const errors = pages.flatMap((p) => jsErrors(p));
  await context.close();
  if (errors.length > 0) throw new Error(`uncaught page errors:\n${errors.join('\n')}`);
}

/** Saves a screenshot as artifacts/screenshots/<name>.png. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  // Let board animations finish.
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** Starts a game from the home page form and waits for the game page. */
export async function startGame(page: Page, opts: { level?: string; color?: string; variant?: string; position?: number; clock?: string } = {}): Promise<string> {
  await page.goto('/');
  await page.getByTestId(`level-${opts.level ?? 'beginner'}`).check();
  await page.getByTestId(`color-${opts.color ?? 'white'}`).check();
  await page.getByTestId(`variant-${opts.variant ?? 'standard'}`).check();
  await page.getByTestId(`clock-${opts.clock ?? 'none'}`).check();
  if (opts.position !== undefined) {
    await page.getByTestId('position-chosen').check();
    await page.getByTestId('position-number').fill(String(opts.position));
  }
  await page.getByTestId('new-game-submit').click();
  try {
    await page.waitForURL(/\/game\/[^/]+$/);
  } catch (e) {
    // Say what the form showed, so that a rare failure can be traced in the server's log.
    const shown = await page.getByTestId('new-game-error').textContent().catch(() => null);
    const button = await page.getByTestId('new-game-submit').textContent().catch(() => null);
    throw new Error(`no game page after New game at ${new Date().toISOString()}: url ${page.url()}, form error ${JSON.stringify(shown)}, button ${JSON.stringify(button)}`, { cause: e });
  }
  await page.getByTestId('move-list').waitFor();
  return new URL(page.url()).pathname.split('/').pop()!;
}

/** Screen position of the centre of `square` on the board. */
export async function squarePoint(page: Page, square: string): Promise<{ x: number; y: number }> {
  const board = page.locator('cg-board');
  const box = await board.boundingBox();
  if (!box) throw new Error('board not visible');
  const black = await page.locator('.cg-wrap.orientation-black').count();
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]) - 1;
  const col = black ? 7 - file : file;
  const row = black ? rank : 7 - rank;
  return { x: box.x + ((col + 0.5) * box.width) / 8, y: box.y + ((row + 0.5) * box.height) / 8 };
}

/** Plays from→to by clicking the two squares. */
export async function clickMove(page: Page, from: string, to: string): Promise<void> {
  const a = await squarePoint(page, from);
  await page.mouse.click(a.x, a.y);
  const b = await squarePoint(page, to);
  await page.mouse.click(b.x, b.y);
}

/** Plays from→to by dragging the piece. */
export async function dragMove(page: Page, from: string, to: string): Promise<void> {
  const a = await squarePoint(page, from);
  const b = await squarePoint(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
  await page.mouse.move(b.x, b.y, { steps: 4 });
  await page.mouse.up();
}

/** The move list as shown (localised SAN), in order. */
export async function moveTexts(page: Page): Promise<string[]> {
  return page.getByTestId('move').allTextContents();
}

/** Waits until the move list holds exactly `n` plies. */
export async function waitForPlies(page: Page, n: number): Promise<void> {
  await page.waitForFunction((count) => document.querySelectorAll('[data-testid="move"]').length === count, n, { timeout: 30_000 });
}

/** Waits until it is the viewer's turn with the board accepting moves. */
export async function waitForOurTurn(page: Page): Promise<void> {
  await page.locator('[data-testid="status"][data-state="your-turn"]').waitFor({ timeout: 30_000 });
}

/** The game state through the API (with this context's cookie). */
export async function apiGame(context: BrowserContext, id: string): Promise<{ fen: string; moves: { uci: string; san: string }[]; status: string; result: string; reason: string | null; you: string | null; v: number; kind: string; table?: string | null; rated?: boolean; clock?: { initial_ms: number; white_ms: number; black_ms: number; running: string | null } | null }> {
  const res = await context.request.get(`/api/games/${id}`);
  if (!res.ok()) throw new Error(`GET /api/games/${id}: ${res.status()}`);
  return (await res.json()) as never;
}

/** The pieces chessground shows, as square → "white pawn" etc. (its elements carry their square as `cgKey`). */
export async function boardPieces(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => {
    const out: Record<string, string> = {};
    for (const el of document.querySelectorAll('cg-board piece')) {
      const key = (el as HTMLElement & { cgKey?: string }).cgKey;
      if (key && !el.classList.contains('ghost') && !el.classList.contains('fading')) out[key] = el.className.replace(/\s*(anim|dragging)\b/g, '').trim();
    }
    return out;
  });
}
