//! The people around the games in a real Chromium against the real
//! server: following and blocking from a profile (the lists, the online
//! dot, the followed players online on the home page, a blocked player's
//! challenge refused), and private messages (the inbox, a conversation
//! opened from a profile, the header's unread count, text never read as
//! HTML, a new account's message to a stranger refused, a cross-site
//! write refused), and the bell (a message and a challenge pushed to an
//! open page at once, the list marked seen), in English, French, Russian
//! and Romanian.
//! Usernames carry a random suffix: the database may outlive a run.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import type { Page } from 'playwright-core';
import { BASE, closeBrowser, done, newPage, PHONE, selectLang, shot } from './helpers.js';

after(closeBrowser);

/** Signs up through the form and waits for the name in the header. */
async function signUp(page: Page, prefix: string): Promise<string> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await page.goto('/signup');
  await page.getByTestId('username').fill(name);
  await page.getByTestId('password').fill(`amber-lantern-${randomBytes(6).toString('hex')}-orbit`);
  await page.getByTestId('submit').click();
  await page.getByTestId('nav-user').filter({ hasText: name }).waitFor();
  return name;
}

/** Opens `name`'s profile and waits for its relations. */
async function profile(page: Page, name: string): Promise<void> {
  await page.goto(`/@/${name}`);
  await page.getByTestId('profile-name').filter({ hasText: name }).waitFor();
  await page.getByTestId('profile-relations').waitFor();
}

/** Keeps the page's account online: its event stream held open (what a program or a tournament page does). */
async function stayOnline(page: Page): Promise<void> {
  await page.evaluate(() => {
    void fetch('/api/stream/event').then((r) => r.body?.getReader().read());
  });
}

test('follow and unfollow from a profile: the lists, who is online, in four languages', { timeout: 120_000 }, async () => {
  const a = await newPage();
  const b = await newPage();
  const aName = await signUp(a.page, 'Fan');
  const bName = await signUp(b.page, 'Star');

  // One's own profile has no buttons; a visitor's page neither.
  await profile(a.page, aName);
  assert.equal(await a.page.getByTestId('profile-follow').count(), 0);
  await a.page.getByTestId('profile-following-none').waitFor();

  await profile(a.page, bName);
  await a.page.getByTestId('profile-nb-followers').filter({ hasText: 'Followers (0)' }).waitFor();
  await a.page.getByTestId('profile-follow').click();
  await a.page.getByTestId('profile-unfollow').waitFor();
  await a.page.getByTestId('profile-nb-followers').filter({ hasText: 'Followers (1)' }).waitFor();
  await a.page.getByTestId('profile-followers-user').filter({ hasText: aName }).waitFor();
  await shot(a.page, 'profile-follow-desktop');

  // Bob comes online: Ann sees him on the home page and with a dot in her list.
  await stayOnline(b.page);
  await a.page.goto('/');
  await a.page.getByTestId('friend-online').filter({ hasText: bName }).waitFor();
  await profile(a.page, aName);
  const mine = a.page.getByTestId('profile-following-user').filter({ hasText: bName });
  await mine.waitFor();
  await mine.getByTestId('online-dot').waitFor();
  await a.page.getByTestId('profile-nb-following').filter({ hasText: 'Following (1)' }).waitFor();

  // French, Russian, Romanian: the same page in each, the buttons in words of the language.
  await profile(a.page, bName);
  await selectLang(a.page, 'fr');
  await a.page.getByTestId('profile-unfollow').filter({ hasText: 'Ne plus suivre' }).waitFor();
  await a.page.getByTestId('profile-nb-followers').filter({ hasText: 'Abonnés (1)' }).waitFor();
  await selectLang(a.page, 'ru');
  await a.page.getByTestId('profile-block').filter({ hasText: 'Заблокировать' }).waitFor();
  await a.page.getByTestId('profile-nb-following').filter({ hasText: 'Подписки (0)' }).waitFor();
  await selectLang(a.page, 'ro');
  await a.page.getByTestId('profile-unfollow').filter({ hasText: 'Nu mai urmări' }).click();
  await a.page.getByTestId('profile-follow').filter({ hasText: 'Urmărește' }).waitFor();
  await a.page.getByTestId('profile-followers-none').filter({ hasText: 'Nimeni deocamdată.' }).waitFor();
  await a.page.goto('/');
  await a.page.getByTestId('friends-none').waitFor();
  await selectLang(a.page, 'en');
  await done(a.context, a.page);
  await done(b.context, b.page);
});

test('a block: the follow ends, the blocked player cannot follow or challenge, unblocked again', { timeout: 120_000 }, async () => {
  const a = await newPage();
  const b = await newPage({ viewport: PHONE });
  const aName = await signUp(a.page, 'Pest');
  const bName = await signUp(b.page, 'Calm');

  await profile(a.page, bName);
  await a.page.getByTestId('profile-follow').click();
  await a.page.getByTestId('profile-unfollow').waitFor();

  // Bob blocks Ann from her profile.
  await profile(b.page, aName);
  await b.page.getByTestId('profile-block').click();
  await b.page.getByTestId('profile-unblock').waitFor();
  await b.page.getByTestId('profile-blocking').waitFor();
  assert.equal(await b.page.getByTestId('profile-follow').count(), 0);
  await shot(b.page, 'profile-blocking-phone');

  // Ann no longer follows him, cannot again, and her challenge is refused.
  await profile(a.page, bName);
  await a.page.getByTestId('profile-nb-followers').filter({ hasText: 'Followers (0)' }).waitFor();
  await a.page.getByTestId('profile-follow').click();
  await a.page.getByTestId('rel-error').filter({ hasText: 'does not accept' }).waitFor();
  const refused = await a.page.evaluate(async (dest) => {
    const r = await fetch(`/api/challenge/${dest}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ 'clock.limit': 300, 'clock.increment': 3 }) });
    return { status: r.status, body: (await r.json()) as { error?: string } };
  }, bName);
  assert.equal(refused.status, 400, JSON.stringify(refused));
  assert.match(refused.body.error ?? '', /does not accept challenges/);

  // Following oneself or nobody: clear errors.
  const errors = await a.page.evaluate(async (me) => {
    const post = async (path: string) => {
      const r = await fetch(path, { method: 'POST' });
      return [r.status, ((await r.json()) as { error?: string }).error ?? ''] as const;
    };
    return [await post(`/api/rel/follow/${me}`), await post('/api/rel/follow/nobody_at_all_here')];
  }, aName);
  const [self, nobody] = errors;
  assert.equal(self?.[0], 400);
  assert.match(self?.[1] ?? '', /yourself/);
  assert.equal(nobody?.[0], 404);

  // Unblocked: Ann may follow again.
  await b.page.getByTestId('profile-unblock').click();
  await b.page.getByTestId('profile-follow').waitFor();
  await profile(a.page, bName);
  await a.page.getByTestId('profile-follow').click();
  await a.page.getByTestId('profile-unfollow').waitFor();
  await done(a.context, a.page);
  await done(b.context, b.page);
});

test('private messages: written from a profile, read in the inbox, the unread count, in four languages', { timeout: 150_000 }, async () => {
  const a = await newPage();
  const b = await newPage({ viewport: PHONE });
  const aName = await signUp(a.page, 'Pen');
  const bName = await signUp(b.page, 'Pal');

  // Bob follows Ann: her new account may write to him.
  await profile(b.page, aName);
  await b.page.getByTestId('profile-follow').click();
  await b.page.getByTestId('profile-unfollow').waitFor();

  await profile(a.page, bName);
  await a.page.getByTestId('profile-message').click();
  await a.page.waitForURL((u) => u.pathname === `/inbox/${bName}`);
  await a.page.getByTestId('inbox-empty-convo').waitFor();
  // Empty: refused on the page, nothing sent.
  await a.page.getByTestId('inbox-send').click();
  await a.page.getByTestId('inbox-error').filter({ hasText: 'Write something first.' }).waitFor();
  const text = '<b>Hello</b> Bob\n<img src=x onerror=alert(1)> second line';
  await a.page.getByTestId('inbox-text').fill(text);
  await a.page.getByTestId('inbox-send').click();
  const sent = a.page.getByTestId('inbox-msg');
  await sent.filter({ hasText: 'second line' }).waitFor();
  assert.equal(await sent.first().getAttribute('data-mine'), 'true');
  assert.equal(await a.page.locator('.inbox-text').first().textContent(), text);
  assert.equal(await a.page.locator('.inbox-msg b, .inbox-msg img').count(), 0);
  assert.equal(await a.page.getByTestId('inbox-report').count(), 0, 'no report button on one’s own message');
  assert.equal(await a.page.getByTestId('inbox-text').inputValue(), '');
  await shot(a.page, 'inbox-desktop');

  // Bob's header counts the unread conversation; reading it clears the count.
  await b.page.goto('/');
  await b.page.getByTestId('nav-inbox-unread').filter({ hasText: '1' }).waitFor();
  await b.page.getByTestId('nav-inbox').click();
  const contact = b.page.getByTestId('inbox-contact').filter({ hasText: aName });
  await contact.waitFor();
  assert.equal(await contact.getAttribute('data-unread'), 'true');
  await contact.locator('a').click();
  await b.page.getByTestId('inbox-msg').filter({ hasText: 'second line' }).waitFor();
  await b.page.getByTestId('nav-inbox-unread').waitFor({ state: 'detached' });
  // Ann's message can be reported: her profile's report form, the message quoted.
  const report = new URL((await b.page.getByTestId('inbox-report').getAttribute('href'))!, 'http://x');
  assert.equal(report.pathname, `/@/${aName}`);
  assert.equal(report.searchParams.get('report'), 'abuse');
  assert.equal(report.searchParams.get('text'), `In a private message: “${text}”`);
  await shot(b.page, 'inbox-phone');

  // French, Russian, Romanian: Bob answers in each.
  for (const [lang, send, title, line] of [
    ['fr', 'Envoyer', 'Messages', 'Bonjour'],
    ['ru', 'Отправить', 'Сообщения', 'Привет'],
    ['ro', 'Trimite', 'Mesaje', 'Salut'],
  ] as const) {
    await selectLang(b.page, lang);
    await b.page.getByTestId('inbox-send').filter({ hasText: send }).waitFor();
    await b.page.getByTestId('nav-inbox').filter({ hasText: title }).waitFor();
    await b.page.getByTestId('inbox-text').fill(line);
    await b.page.getByTestId('inbox-send').click();
    await b.page.getByTestId('inbox-msg').filter({ hasText: line }).waitFor();
  }
  await selectLang(b.page, 'en');
  await a.page.goto(`/inbox/${bName}`);
  await a.page.getByTestId('inbox-msg').filter({ hasText: 'Salut' }).waitFor();
  assert.equal(await a.page.getByTestId('inbox-msg').count(), 4);

  // A third, new account may not write to Ann, a stranger: told so in its language.
  const c = await newPage();
  await signUp(c.page, 'Odd');
  await c.page.goto(`/inbox/${aName}`);
  await c.page.getByTestId('inbox-refusal').filter({ hasText: 'first hour' }).waitFor();
  assert.equal(await c.page.getByTestId('inbox-form').count(), 0);
  await selectLang(c.page, 'fr');
  await c.page.getByTestId('inbox-refusal').filter({ hasText: 'première heure' }).waitFor();
  await selectLang(c.page, 'en');
  // Oneself: no conversation.
  await c.page.goto(`/inbox/${await c.page.getByTestId('nav-user').textContent()}`);
  await c.page.getByTestId('inbox-failed').filter({ hasText: 'yourself' }).waitFor();

  // Ann's session cookie from another site cannot write.
  const cookie = (await a.context.cookies()).map((k) => `${k.name}=${k.value}`).join('; ');
  const foreign = await fetch(`${BASE}/inbox/${bName}`, { method: 'POST', headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, body: 'text=spam' });
  assert.equal(foreign.status, 403);
  await a.page.reload();
  await a.page.getByTestId('inbox-msg').filter({ hasText: 'Salut' }).waitFor();
  assert.equal(await a.page.getByTestId('inbox-msg').count(), 4);
  await done(c.context, c.page);
  await done(a.context, a.page);
  await done(b.context, b.page);
});

test('the bell: a message and a challenge reach an open page at once, listed and marked seen, in four languages', { timeout: 120_000 }, async () => {
  const a = await newPage();
  const b = await newPage();
  const aName = await signUp(a.page, 'Bell');
  const bName = await signUp(b.page, 'Ring');
  // Ann follows Bob: his new account may write to her.
  await profile(a.page, bName);
  await a.page.getByTestId('profile-follow').click();
  await a.page.getByTestId('profile-unfollow').waitFor();
  await a.page.goto('/learn');
  await a.page.getByTestId('nav-bell').waitFor();
  assert.equal(await a.page.getByTestId('nav-bell-count').count(), 0);

  // Bob writes: Ann's page hears it without reloading.
  const sent = await b.page.evaluate(async (to) => (await fetch(`/inbox/${to}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'ring <i>ring</i>' }) })).status, aName);
  assert.equal(sent, 200);
  await a.page.getByTestId('nav-bell-count').filter({ hasText: '1' }).waitFor();
  await a.page.getByTestId('nav-inbox-unread').filter({ hasText: '1' }).waitFor();

  // And his challenge: the count grows, the banner shows it.
  const made = await b.page.evaluate(async (to) => (await fetch(`/api/challenge/${to}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ 'clock.limit': 300, 'clock.increment': 3 }) })).status, aName);
  assert.equal(made, 200);
  await a.page.getByTestId('nav-bell-count').filter({ hasText: '2' }).waitFor();

  // The list: newest first; opening it marks both seen.
  await a.page.getByTestId('nav-bell').click();
  const items = a.page.getByTestId('bell-item');
  await items.nth(1).waitFor();
  assert.deepEqual(await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-kind'))), ['challenge', 'msg']);
  await items.filter({ hasText: `${bName} challenges you` }).waitFor();
  await items.filter({ hasText: `${bName} wrote to you: ring <i>ring</i>` }).waitFor();
  assert.equal(await a.page.locator('.bell-item i').count(), 0);
  await a.page.getByTestId('nav-bell-count').waitFor({ state: 'detached' });
  await shot(a.page, 'bell-desktop');

  for (const [lang, challenge, msg] of [
    ['fr', 'vous lance un défi', 'vous a écrit'],
    ['ru', 'вызывает вас на партию', 'пишет вам'],
    ['ro', 'vă provoacă', 'v-a scris'],
  ] as const) {
    await selectLang(a.page, lang);
    await items.filter({ hasText: challenge }).waitFor();
    await items.filter({ hasText: msg }).waitFor();
  }
  await selectLang(a.page, 'en');
  // The message's notification leads to the conversation.
  await items.filter({ hasText: 'wrote to you' }).locator('a').click();
  await a.page.waitForURL((u) => u.pathname === `/inbox/${bName}`);
  await a.page.getByTestId('inbox-msg').filter({ hasText: 'ring <i>ring</i>' }).waitFor();
  // Seen stays seen after a reload.
  await a.page.reload();
  await a.page.getByTestId('nav-bell').waitFor();
  await a.page.waitForTimeout(500);
  assert.equal(await a.page.getByTestId('nav-bell-count').count(), 0);
  await done(a.context, a.page);
  await done(b.context, b.page);
});
