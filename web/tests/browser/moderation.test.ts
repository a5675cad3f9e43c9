//! Moderation in the browser: an admin named by the command line
//! (`plyyard admin role`, against the running site's database) gives a
//! moderator role on the roles page; a player reports another from their
//! profile; the moderator finds the report in the queue and closes it
//! with a warning, which the reported player reads on their next page;
//! the moderator mutes and unmutes from the player's page; the log holds
//! every step; a player without a role is refused the pages (403). The
//! pages are also shown in French, Russian and Romanian. An admin names the
//! site, opens sign-ups by invitation (an invited visitor signs up with
//! the link) and closes them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import type { Page } from 'playwright-core';
import { closeBrowser, done, newPage, selectLang, shot } from './helpers.js';

after(closeBrowser);

const BIN = process.env.PLYYARD_TEST_BIN;
const DB = process.env.PLYYARD_TEST_DB_URL;
const skip = !BIN || !DB ? 'needs the server started by tests/run.mjs (its binary and database)' : false;

async function signUp(page: Page, prefix: string): Promise<string> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await page.goto('/signup');
  await page.getByTestId('username').fill(name);
  await page.getByTestId('password').fill(`amber-lantern-${randomBytes(6).toString('hex')}-orbit`);
  await page.getByTestId('submit').click();
  await page.waitForURL((u) => u.pathname === '/');
  return name;
}

/** `plyyard admin role` on the running site's database. */
function grant(user: string, role: string): void {
  const r = spawnSync(BIN!, ['admin', 'role', '--db', DB!, '--user', user, '--role', role], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

test('roles, a report closed with a warning, mute and unmute, the log; 403 for players', { skip }, async () => {
  const admin = await newPage();
  const modr = await newPage();
  const reporter = await newPage();
  const bad = await newPage();
  const adminName = await signUp(admin.page, 'adm');
  const modName = await signUp(modr.page, 'mod');
  await signUp(reporter.page, 'rep');
  const badName = await signUp(bad.page, 'bad');
  grant(adminName, 'admin');

  // A player without a role: the pages answer 403 and say so.
  const refused = await bad.page.goto('/mod');
  assert.equal(refused?.status(), 403);
  await bad.page.getByTestId('mod-forbidden').waitFor();

  // The admin gives the moderator role on the roles page.
  await admin.page.goto('/mod/roles');
  await admin.page.getByTestId('mod-roles-page').waitFor();
  await admin.page.getByTestId('mod-role-username').fill(modName);
  await admin.page.getByTestId('mod-role-select').selectOption('moderator');
  await admin.page.getByTestId('mod-role-submit').click();
  await admin.page.getByTestId('mod-role-done').waitFor();
  await admin.page.locator(`[data-testid="mod-staff-row"][data-username="${modName}"][data-role="moderator"]`).waitFor();
  // Giving it twice is refused with the server's reason.
  await admin.page.getByTestId('mod-role-username').fill(modName);
  await admin.page.getByTestId('mod-role-submit').click();
  await admin.page.getByTestId('mod-role-error').filter({ hasText: 'already' }).waitFor();
  await shot(admin.page, 'mod-roles');

  // A report from the profile.
  await reporter.page.goto(`/@/${badName}`);
  await reporter.page.getByTestId('report-open').click();
  await reporter.page.getByTestId('report-reason').selectOption('abuse');
  await reporter.page.getByTestId('report-submit').click();
  await reporter.page.getByTestId('report-error').filter({ hasText: /text/ }).waitFor();
  await reporter.page.getByTestId('report-text').fill('Insults after every game.');
  await reporter.page.getByTestId('report-submit').click();
  await reporter.page.getByTestId('report-sent').waitFor();

  // The moderator's queue: the report, closed with a warning.
  const page = await modr.page.goto('/mod');
  assert.equal(page?.status(), 200);
  const group = modr.page.locator(`[data-testid="mod-report-group"][data-username="${badName}"]`);
  await group.waitFor();
  assert.equal(await group.getByTestId('mod-report-text').textContent(), 'Insults after every game.');
  await group.getByTestId('mod-close-action').selectOption('warn');
  await group.getByTestId('mod-close-reason').fill('Keep the chat friendly, please.');
  await shot(modr.page, 'mod-queue');
  await group.getByTestId('mod-close-submit').click();
  await group.waitFor({ state: 'detached' });

  // The reporter is told, in the bell, that the report was handled.
  await reporter.page.goto('/');
  await reporter.page.getByTestId('nav-bell-count').waitFor();
  await reporter.page.getByTestId('nav-bell').click();
  await reporter.page.locator('[data-testid="bell-item"][data-kind="report"]').filter({ hasText: badName }).waitFor();

  // The reported player reads the warning on their next page.
  await bad.page.goto('/');
  await bad.page.getByTestId('mod-warning-text').filter({ hasText: 'Keep the chat friendly, please.' }).waitFor();
  await shot(bad.page, 'mod-warning');
  await bad.page.getByTestId('mod-warning-ack').click();
  await bad.page.getByTestId('mod-warning').waitFor({ state: 'detached' });
  await bad.page.goto('/');
  await bad.page.getByTestId('home-link').waitFor();
  assert.equal(await bad.page.getByTestId('mod-warning').count(), 0);

  // Mute and unmute from the player's page.
  await modr.page.goto(`/mod/user/${badName}`);
  await modr.page.getByTestId('mod-user-page').waitFor();
  // No rated game against an account of the same address (the API tests mark some).
  await modr.page.getByTestId('mod-evidence-shared-none').waitFor();
  // No rated game judged: not flagged (the API tests flag an engine user).
  await modr.page.locator('[data-testid="mod-fair"][data-flagged="false"]').waitFor();
  assert.match((await modr.page.getByTestId('mod-fair-counts').textContent()) ?? '', /^0 /);
  await modr.page.getByTestId('mod-user-reason').fill('spam');
  await modr.page.getByTestId('mod-take-mute').click();
  await modr.page.locator('[data-testid="mod-user-mark"][data-mark="mute"]').waitFor();
  await shot(modr.page, 'mod-user');
  await modr.page.getByTestId('mod-lift-mute').click();
  await modr.page.getByTestId('mod-user-unmarked').waitFor();
  // A moderator acts on nobody's own account, nor on an admin.
  await modr.page.goto(`/mod/user/${adminName}`);
  await modr.page.getByTestId('mod-take-mute').click();
  await modr.page.getByTestId('mod-user-error').filter({ hasText: 'admin' }).waitFor();

  // The log: newest first.
  await modr.page.goto('/mod/log');
  await modr.page.getByTestId('mod-log-page').waitFor();
  const actions = await modr.page.getByTestId('mod-log-action').allTextContents();
  assert.deepEqual(actions.slice(0, 2), ['unmute', 'mute'], actions.join(','));
  // The warning and the closed report are one change, logged together.
  assert.deepEqual(new Set(actions.slice(2, 4)), new Set(['report', 'warn']), actions.join(','));
  assert.deepEqual(actions.slice(4, 6), ['role', 'role'], actions.join(','));
  // A moderator is not an admin: no roles form.
  await modr.page.goto('/mod/roles');
  await modr.page.getByTestId('mod-roles-admins-only').waitFor();

  // The pages in the other languages.
  for (const lang of ['fr', 'ru', 'ro']) {
    await selectLang(modr.page, lang);
    await modr.page.goto('/mod/log');
    await modr.page.getByTestId('mod-log-page').waitFor();
    await shot(modr.page, `mod-log-${lang}`);
  }
  await done(admin.context, admin.page);
  await done(modr.context, modr.page);
  await done(reporter.context, reporter.page);
  await done(bad.context, bad.page);
});

test('an admin names the site and opens sign-ups by invitation, then closes them; an invited visitor signs up', { skip }, async () => {
  const admin = await newPage();
  const visitor = await newPage();
  const late = await newPage();
  const adminName = await signUp(admin.page, 'adm');
  grant(adminName, 'admin');
  const save = async (signups: string) => {
    await admin.page.getByTestId('mod-site-signups').selectOption(signups);
    await admin.page.getByTestId('mod-site-save').click();
    await admin.page.getByTestId('mod-site-saved').waitFor();
  };
  try {
    await admin.page.goto('/mod/roles');
    await admin.page.getByTestId('mod-site-form').waitFor();
    await admin.page.getByTestId('mod-site-name').fill('Rook Club');
    await admin.page.getByTestId('mod-site-contact').fill('board@example.org');
    await save('invite');
    // The header takes the new name at once.
    await admin.page.getByTestId('home-link').filter({ hasText: 'Rook Club' }).waitFor();
    await admin.page.getByTestId('mod-invite-new').click();
    const link = new URL((await admin.page.getByTestId('mod-invite-link').textContent()) ?? '');
    const code = link.searchParams.get('invite') ?? '';
    assert.equal(code.length, 16);
    await shot(admin.page, 'mod-site');

    // Without the code, or with a wrong one, no account.
    const name = `inv_${randomBytes(4).toString('hex')}`;
    await visitor.page.goto('/signup');
    await visitor.page.getByTestId('site-contact').filter({ hasText: 'board@example.org' }).waitFor();
    await visitor.page.getByTestId('username').fill(name);
    await visitor.page.getByTestId('password').fill(`amber-lantern-${randomBytes(6).toString('hex')}-orbit`);
    await visitor.page.getByTestId('invite').fill('WRONGCODE');
    await visitor.page.getByTestId('submit').click();
    await visitor.page.getByTestId('form-error').filter({ hasText: 'unknown or was already used' }).waitFor();
    // With the admin's link, the code is filled in.
    await visitor.page.goto(`${link.pathname}${link.search}`);
    assert.equal(await visitor.page.getByTestId('invite').inputValue(), code);
    await visitor.page.getByTestId('username').fill(name);
    await visitor.page.getByTestId('password').fill(`amber-lantern-${randomBytes(6).toString('hex')}-orbit`);
    await visitor.page.getByTestId('submit').click();
    await visitor.page.waitForURL((u) => u.pathname === '/');
    await visitor.page.getByTestId('nav-user').filter({ hasText: name }).waitFor();
    await admin.page.reload();
    await admin.page.locator('[data-testid="mod-invite-row"][data-used="true"]').filter({ hasText: name }).waitFor();

    // Closed: the sign-up page says so and has no form.
    await save('closed');
    await late.page.goto('/signup');
    await late.page.getByTestId('signups-closed').waitFor();
    assert.equal(await late.page.getByTestId('signup-form').count(), 0);
    await shot(late.page, 'signups-closed');
  } finally {
    // The other tests sign up on this server: open again, under the usual name.
    const r = await admin.page.evaluate(async () => {
      const res = await fetch('/api/mod/site', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Ply Yard', contact: '', signups: 'open' }) });
      return res.status;
    });
    assert.equal(r, 200);
  }
  await done(admin.context, admin.page);
  await done(visitor.context, visitor.page);
  await done(late.context, late.page);
});
