//! Arena tournaments in the browser: an Arena created from the form (its
//! countdown, its row in the list and on its club's page), bad settings
//! refused with a clear error, two players joining an Arena that starts at
//! once, paired by the director with both game pages opened by
//! themselves, a game played to its end and its points in the standings
//! (with a player's sheet), the link back from the game, a withdrawal,
//! the chat, and the pages in French.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import type { Page } from 'playwright-core';
import { apiGame, clickMove, closeBrowser, done, newPage, PHONE, selectLang, shot, waitForOurTurn, waitForPlies } from './helpers.js';

after(closeBrowser);

async function signUp(page: Page, prefix: string): Promise<string> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await page.goto('/signup');
  await page.getByTestId('username').fill(name);
  await page.getByTestId('password').fill(`amber-lantern-${randomBytes(6).toString('hex')}-orbit`);
  await page.getByTestId('submit').click();
  await page.waitForURL((u) => u.pathname === '/');
  return name;
}

/** Opens the form from the header's link and the list's button. */
async function openForm(page: Page): Promise<void> {
  await page.getByTestId('tournaments-link').click();
  await page.getByTestId('arenas-page').waitFor();
  await page.getByTestId('arena-create').click();
  await page.waitForURL((u) => u.pathname === '/tournament/new');
  await page.getByTestId('arena-new-form').waitFor();
}

/** Fills the form's main knobs and submits; the new Arena's id. */
async function createArena(page: Page, opts: { name: string; wait: string; clock?: string; increment?: string; minutes?: string; club?: string }): Promise<string> {
  await openForm(page);
  await page.getByTestId('arena-name').fill(opts.name);
  await page.getByTestId('arena-clockMinutes').fill(opts.clock ?? '3');
  await page.getByTestId('arena-increment').fill(opts.increment ?? '2');
  await page.getByTestId('arena-minutes').fill(opts.minutes ?? '30');
  await page.getByTestId('arena-waitMinutes').fill(opts.wait);
  if (opts.club) await page.getByTestId('arena-club').selectOption(opts.club);
  await page.getByTestId('arena-new-submit').click();
  await page.waitForURL((u) => /^\/tournament\/(?!new$)[^/]+$/.test(u.pathname));
  await page.getByTestId('arena-name').filter({ hasText: `${opts.name} Arena` }).waitFor();
  return new URL(page.url()).pathname.split('/').pop()!;
}

test('an Arena made from the form counts down to its start and is listed, also on its club page', async () => {
  const { context, page } = await newPage();
  await signUp(page, 'arena_host');
  // A club the host leads: the form offers a club-only Arena.
  await page.goto('/team/new');
  const club = `Arena Club ${randomBytes(3).toString('hex')}`;
  await page.getByTestId('club-create-name').fill(club);
  await page.getByTestId('club-create-submit').click();
  await page.waitForURL((u) => /^\/team\/(?!new$)[^/]+$/.test(u.pathname));
  const clubId = new URL(page.url()).pathname.split('/').pop()!;
  await page.getByTestId('club-arenas').filter({ hasText: 'This club has no tournament yet.' }).waitFor();

  const id = await createArena(page, { name: 'Sunday Blitz', wait: '5', club: clubId });
  const countdown = page.getByTestId('arena-countdown');
  await countdown.waitFor();
  assert.equal(await countdown.getAttribute('data-state'), 'waiting');
  assert.match((await countdown.textContent()) ?? '', /Starts in [45]:\d\d/);
  // It counts down by itself.
  const first = await countdown.textContent();
  await page.waitForFunction((t) => document.querySelector('[data-testid="arena-countdown"]')?.textContent !== t, first);
  await page.getByTestId('arena-club').filter({ hasText: clubId }).waitFor();
  await page.getByTestId('arena-standing-empty').waitFor();
  // The creator is not in it until they join; then they can withdraw before it starts.
  await page.getByTestId('arena-join').click();
  await page.locator('[data-testid="arena-actions"][data-state="in"]').waitFor();
  await page.locator(`[data-testid="arena-standing-row"][data-name^="arena_host_"]`).waitFor();
  await page.getByTestId('arena-withdraw').click();
  await page.locator('[data-testid="arena-actions"][data-state="paused"]').waitFor();
  const pausedAt = Date.now();
  await shot(page, 'arena-waiting');

  // A visitor's open page follows through the Arena's socket: the host's
  // pause, then their return, show before its slow poll (30 s) would read them.
  const visitor = await newPage();
  await visitor.page.goto(`/tournament/${id}`);
  await visitor.page.locator('tr.arena-standing.paused[data-testid="arena-standing-row"][data-name^="arena_host_"]').waitFor();
  // A first pause may not be ended for 10 s.
  await new Promise((r) => setTimeout(r, Math.max(0, pausedAt + 10_500 - Date.now())));
  await page.getByTestId('arena-join').click();
  await page.locator('[data-testid="arena-actions"][data-state="in"]').waitFor();
  await visitor.page.locator('tr.arena-standing:not(.paused)[data-testid="arena-standing-row"][data-name^="arena_host_"]').waitFor({ timeout: 10_000 });
  await done(visitor.context, visitor.page);

  await page.getByTestId('arena-back').click();
  await page.locator(`[data-testid="arena-list-created"] [data-testid="arena-row"][data-id="${id}"]`).waitFor();
  await page.goto(`/team/${clubId}`);
  await page.locator(`[data-testid="club-arenas"] [data-testid="arena-row"][data-id="${id}"]`).waitFor();
  await done(context, page);
});

test('bad settings in the form give a clear error and create nothing', async () => {
  const { context, page } = await newPage();
  await signUp(page, 'arena_bad');
  await openForm(page);
  await page.getByTestId('arena-clockMinutes').fill('0');
  await page.getByTestId('arena-increment').fill('0');
  await page.getByTestId('arena-new-submit').click();
  await page.getByTestId('arena-new-error').filter({ hasText: 'A clock of 0+0 cannot be played' }).waitFor();
  await page.getByTestId('arena-clockMinutes').fill('3');
  await page.getByTestId('arena-minutes').fill('2');
  await page.getByTestId('arena-new-submit').click();
  await page.getByTestId('arena-new-error').filter({ hasText: 'from 5 to 1440' }).waitFor();
  // The server refuses what the form cannot know: a clock outside lichess's Arena choices (9+0).
  await page.getByTestId('arena-minutes').fill('30');
  await page.getByTestId('arena-clockMinutes').fill('9');
  await page.getByTestId('arena-increment').fill('0');
  await page.getByTestId('arena-new-submit').click();
  const error = page.getByTestId('arena-new-error');
  await page.waitForFunction(() => (document.querySelector('[data-testid="arena-new-error"]')?.textContent ?? '') !== '');
  assert.ok(((await error.textContent()) ?? '').length > 5);
  assert.equal(new URL(page.url()).pathname, '/tournament/new');
  await done(context, page);
});

test('two players join, are paired, their games open by themselves, White goes berserk, the game counts, one withdraws, the creator ends it', async () => {
  const a = await newPage();
  const b = await newPage();
  const ann = await signUp(a.page, 'arena_ann');
  const bob = await signUp(b.page, 'arena_bob');
  const name = `Duel ${randomBytes(2).toString('hex')}`;
  const id = await createArena(a.page, { name, wait: '0' });
  await a.page.locator('[data-testid="arena-countdown"][data-state="running"]').waitFor({ timeout: 30_000 });
  await a.page.getByTestId('arena-join').click();
  await a.page.locator('[data-testid="arena-actions"][data-state="in"]').waitFor();

  // Bob finds it in the list of Arenas being played.
  await b.page.getByTestId('tournaments-link').click();
  await b.page.locator(`[data-testid="arena-list-started"] [data-testid="arena-row"][data-id="${id}"] [data-testid="arena-row-link"]`).click();
  await b.page.getByTestId('arena-standing-row').first().waitFor();
  await b.page.getByTestId('arena-join').click();

  // The director pairs them: both pages open the game at once.
  await Promise.all([a.page.waitForURL(/\/game\/[^/]+$/, { timeout: 30_000 }), b.page.waitForURL(/\/game\/[^/]+$/, { timeout: 30_000 })]);
  const gameId = new URL(a.page.url()).pathname.split('/').pop()!;
  assert.equal(new URL(b.page.url()).pathname, `/game/${gameId}`);
  await a.page.getByTestId('game-arena-link').filter({ hasText: name }).waitFor();
  const annColour = (await apiGame(a.context, gameId)).you;
  const [white, black] = annColour === 'white' ? [a.page, b.page] : [b.page, a.page];
  const winner = annColour === 'white' ? bob : ann;
  const loser = annColour === 'white' ? ann : bob;
  await waitForOurTurn(white);
  // White goes berserk before moving: half of 3 minutes; both pages show it; the button is gone.
  await white.getByTestId('game-berserk').click();
  await white.getByTestId('berserk-bottom').waitFor();
  await black.getByTestId('berserk-top').waitFor();
  assert.equal((await white.getByTestId('clock-bottom').textContent())?.trim(), '1:30');
  assert.equal(await white.getByTestId('game-berserk').count(), 0);
  await clickMove(white, 'e2', 'e4');
  await waitForPlies(black, 1);
  await waitForOurTurn(black);
  await clickMove(black, 'e7', 'e5');
  await waitForPlies(white, 2);
  // Black has moved (once its own page has the move back): too late for Black to go berserk.
  await waitForPlies(black, 2);
  assert.equal(await black.getByTestId('game-berserk').count(), 0);
  await white.getByTestId('resign').click();
  await white.getByTestId('resign-confirm').click();
  await black.getByTestId('result-headline').filter({ hasText: 'You won!' }).waitFor({ timeout: 30_000 });

  // Back on the Arena's page: the winner has 2 points, the loser none.
  await white.getByTestId('game-arena-link').click();
  await white.waitForURL((u) => u.pathname === `/tournament/${id}`);
  const winnerRow = white.locator(`[data-testid="arena-standing-row"][data-name="${winner}"]`);
  await white.locator(`[data-testid="arena-standing-row"][data-name="${winner}"][data-score="2"]`).waitFor({ timeout: 30_000 });
  assert.equal((await winnerRow.locator('.rank').textContent())?.trim(), '1');
  assert.equal(await white.locator(`[data-testid="arena-standing-row"][data-name="${loser}"]`).getAttribute('data-score'), '0');
  // A player's sheet.
  await winnerRow.getByTestId('arena-player').click();
  await white.locator(`[data-testid="arena-player-sheet"][data-name="${winner}"]`).filter({ hasText: 'Rank 1 · 2 points' }).waitFor();

  // The chat.
  await white.getByTestId('arena-chat-input').fill('good game');
  await white.getByTestId('arena-chat-send').click();
  await white.getByTestId('arena-chat-line').filter({ hasText: 'good game' }).waitFor();
  // One's own line has no report button (another player's has: the same helper as clubs and Swiss).
  assert.equal(await white.getByTestId('arena-chat-report').count(), 0);

  // The loser withdraws (pauses): marked paused, and may come back.
  await white.getByTestId('arena-withdraw').click();
  await white.locator('[data-testid="arena-actions"][data-state="paused"]').waitFor();
  await white.locator(`[data-testid="arena-standing-row"][data-name="${loser}"].paused`).waitFor();
  assert.equal((await white.getByTestId('arena-join').textContent())?.trim(), 'Come back');
  await shot(white, 'arena-standings');

  // Its creator ends it (asked twice): the podium shows the winner first.
  await a.page.goto(`/tournament/${id}`);
  await a.page.getByTestId('arena-terminate').click();
  await a.page.getByTestId('arena-terminate').filter({ hasText: 'Click again' }).click();
  await a.page.getByTestId('arena-podium').waitFor();
  assert.equal(await a.page.getByTestId('arena-podium-place').first().getAttribute('data-name'), winner);
  await a.page.getByTestId('arena-finished').waitFor();
  assert.equal(await a.page.getByTestId('arena-join').count(), 0);
  await b.page.goto('/tournament');
  await b.page.locator(`[data-testid="arena-list-finished"] [data-testid="arena-row"][data-id="${id}"]`).waitFor();
  // The rated 3+0 game is the winner's first point on their Blitz rating graph.
  await b.page.goto(`/@/${winner}`);
  await b.page.locator('[data-testid="profile-rating-graph"] [data-speed="blitz"][data-points="1"]').waitFor();
  assert.equal(await b.page.getByTestId('profile-results-blitz').textContent(), ' · 1 won, 0 drawn, 0 lost');
  await shot(b.page, 'profile-rating-graph');
  // The winner's Blitz page: this game is their highest rating and their best win.
  await b.page.getByTestId('profile-perf-blitz').click();
  await b.page.waitForURL((u) => u.pathname === `/@/${winner}/perf/blitz`);
  await b.page.getByTestId('perf-rating').waitFor();
  assert.equal((await b.page.getByTestId('perf-count').locator('td').textContent())?.trim(), '1 finished, 1 rated');
  assert.equal(await b.page.locator(`[data-testid="perf-best-wins-row"][data-game="${gameId}"]`).count(), 1);
  assert.match((await b.page.getByTestId('perf-win-streak').locator('td').textContent()) ?? '', /now 1 · longest 1/);
  assert.match((await b.page.getByTestId('perf-best-wins-row').textContent()) ?? '', new RegExp(`^1500 ${loser}`));
  await b.page.getByTestId('perf-back').click();
  await b.page.waitForURL((u) => u.pathname === `/@/${winner}`);
  // The game in the list: its clock, rated, and what it did to the winner's rating.
  const listed = b.page.locator(`[data-testid="profile-game"][data-id="${gameId}"]`);
  await listed.waitFor();
  assert.match((await listed.locator('.profile-meta').textContent()) ?? '', /3\+2 · Rated/);
  assert.match((await listed.getByTestId('profile-rating-diff').textContent()) ?? '', /^ \+\d+$/);
  // The game search: the loser's won blitz games against the winner are none, the lost ones this game.
  await b.page.goto(`/@/${loser}`);
  await b.page.getByTestId('games-search').locator('summary').click();
  await b.page.getByTestId('search-vs').fill(winner);
  await b.page.getByTestId('search-perfType').selectOption('blitz');
  await b.page.getByTestId('search-result').selectOption('win');
  await b.page.getByTestId('search-submit').click();
  await b.page.waitForURL((u) => u.pathname === `/@/${loser}` && u.searchParams.get('result') === 'win');
  await b.page.getByTestId('profile-empty').filter({ hasText: 'No game matches this search.' }).waitFor();
  await b.page.getByTestId('search-result').selectOption('loss');
  await b.page.getByTestId('search-submit').click();
  await b.page.locator(`[data-testid="profile-game"][data-id="${gameId}"]`).waitFor();
  assert.equal(await b.page.getByTestId('profile-game').count(), 1);
  assert.match((await b.page.getByTestId('profile-rating-diff').textContent()) ?? '', /^ −\d+$/);
  // Cleared, every game of the loser is listed again.
  await b.page.getByTestId('search-clear').click();
  await b.page.waitForURL((u) => u.pathname === `/@/${loser}` && u.search === '');
  await b.page.locator(`[data-testid="profile-game"][data-id="${gameId}"]`).waitFor();
  assert.equal(await b.page.getByTestId('games-search').getAttribute('open'), null);
  await done(a.context, a.page);
  await done(b.context, b.page);
});

test('the tournament pages in French, on a phone', async () => {
  const { context, page } = await newPage({ viewport: PHONE });
  await signUp(page, 'arena_fr');
  await selectLang(page, 'fr');
  // On a phone the header keeps two rows: the home page links to the tournaments.
  assert.equal(await page.getByTestId('tournaments-link').isVisible(), false);
  await page.getByTestId('home-tournaments-link').filter({ hasText: 'Jouer un tournoi Arena' }).click();
  await page.locator('h1').filter({ hasText: 'Tournois Arena' }).waitFor();
  await page.getByTestId('arena-create').filter({ hasText: 'Créer une Arena' }).click();
  await page.getByTestId('arena-minutes').fill('3');
  await page.getByTestId('arena-new-submit').click();
  await page.getByTestId('arena-new-error').filter({ hasText: 'La durée est un nombre entier de minutes entre 5 et 1440.' }).waitFor();
  await page.getByTestId('arena-minutes').fill('30');
  await page.getByTestId('arena-name').fill('Soirée');
  await page.getByTestId('arena-new-submit').click();
  await page.getByTestId('arena-countdown').filter({ hasText: 'Commence dans' }).waitFor();
  await page.getByTestId('arena-join').filter({ hasText: 'Participer' }).waitFor();
  await page.getByTestId('arena-standing-empty').filter({ hasText: 'Personne n’a encore rejoint.' }).waitFor();
  await shot(page, 'arena-phone-fr');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= PHONE.width, `the Arena page scrolls sideways: ${width}px`);
  await done(context, page);
});
