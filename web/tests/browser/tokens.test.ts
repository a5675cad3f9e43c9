//! API tokens and OAuth in the browser: the tokens page (prefilled from a
//! lichess-style create link, the secret shown once, the token working
//! with `Authorization: Bearer`, revoked), and the authorization page of
//! the PKCE flow (approve: back to the app with a code; deny).
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import type { Page } from 'playwright-core';
import { BASE, closeBrowser, done, newPage, selectLang, shot } from './helpers.js';

after(closeBrowser);

async function signUp(page: Page): Promise<string> {
  const name = `tok_${randomBytes(4).toString('hex')}`;
  await page.goto('/signup');
  await page.getByTestId('username').fill(name);
  await page.getByTestId('password').fill(`amber-lantern-${randomBytes(6).toString('hex')}-orbit`);
  await page.getByTestId('submit').click();
  await page.waitForURL((u) => u.pathname === '/');
  return name;
}

test('a token is created from a prefilled link, shown once, works, and is revoked', async () => {
  const { context, page } = await newPage();
  const name = await signUp(page);
  await page.goto('/account/oauth/token/create?scopes[]=bot:play&scopes[]=challenge:read&description=lichess-bot');
  await page.getByTestId('tokens-page').waitFor();
  assert.equal(await page.getByTestId('token-description').inputValue(), 'lichess-bot');
  assert.equal(await page.getByTestId('scope-bot-play').isChecked(), true);
  assert.equal(await page.getByTestId('scope-board-play').isChecked(), false);
  await page.getByTestId('tokens-none').waitFor();
  await page.getByTestId('token-create').click();
  const secret = (await page.getByTestId('token-secret').textContent()) ?? '';
  assert.match(secret, /^lip_[A-Za-z0-9]{24}$/);
  await page.getByTestId('token').first().waitFor();
  await shot(page, 'tokens-desktop');

  // A program uses it: no cookie, a Bearer header.
  const res = await fetch(`${BASE}/api/account`, { headers: { authorization: `Bearer ${secret}` } });
  assert.equal(res.status, 200);
  assert.equal((await res.json()).username, name);

  // Shown once: a reload lists the token but not its secret.
  await page.reload();
  await page.getByTestId('token').first().waitFor();
  assert.equal(await page.getByTestId('token-secret').count(), 0);
  assert.equal((await page.content()).includes(secret), false);

  await page.getByTestId('token-revoke').click();
  await page.getByTestId('tokens-none').waitFor();
  const gone = await fetch(`${BASE}/api/account`, { headers: { authorization: `Bearer ${secret}` } });
  assert.equal(gone.status, 401);

  // Nothing chosen: a clear error, nothing created.
  await page.getByTestId('token-description').fill('empty');
  await page.getByTestId('scope-bot-play').uncheck();
  await page.getByTestId('scope-challenge-read').uncheck();
  await page.getByTestId('token-create').click();
  await page.getByTestId('form-error').filter({ hasText: /permission/ }).waitFor();
  await page.getByTestId('tokens-none').waitFor();
  await done(context, page);
});

test('each scope checkbox sits on its label\'s line, at its start, on a desktop and a phone', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const { context, page } = await newPage({ viewport });
    await signUp(page);
    await page.goto('/account/oauth/token');
    await page.getByTestId('tokens-page').waitFor();
    for (const id of ['scope-bot-play', 'scope-challenge-read']) {
      const box = await page.getByTestId(id).boundingBox();
      const label = await page.locator(`label[for="${id}"] code`).boundingBox();
      assert.ok(box && label, id);
      // A checkbox the width of the form would stand alone, centred.
      assert.ok(box.width < 40, `${id}: the checkbox is ${box.width}px wide`);
      assert.ok(label.x > box.x + box.width - 1, `${id}: the text starts after the box`);
      assert.ok(label.x - (box.x + box.width) < 24, `${id}: the text follows the box closely`);
      // On one line: the box's middle lies within the text's first line.
      const mid = box.y + box.height / 2;
      assert.ok(mid > label.y && mid < label.y + 28, `${id}: the box (middle ${mid}) is on the text's first line (top ${label.y})`);
    }
    await done(context, page);
  }
});

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(40).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

test('an app is allowed through the authorization page and gets a working token', async () => {
  const { context, page } = await newPage();
  const name = await signUp(page);
  const { verifier, challenge } = pkce();
  const redirect = `${BASE}/callback`;
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: 'Example Board App',
    redirect_uri: redirect,
    code_challenge_method: 'S256',
    code_challenge: challenge,
    scope: 'board:play challenge:read',
    state: 'abc123',
  });
  await page.goto(`/oauth?${query}`);
  await page.getByTestId('oauth-client').filter({ hasText: 'Example Board App' }).waitFor();
  assert.equal(await page.getByTestId('oauth-scopes').locator('li').count(), 2);
  await shot(page, 'oauth-desktop');
  await selectLang(page, 'fr');
  await page.getByTestId('oauth-approve').filter({ hasText: 'Autoriser' }).waitFor();
  await selectLang(page, 'en');
  await page.getByTestId('oauth-approve').click();
  await page.waitForURL((u) => u.pathname === '/callback');
  const back = new URL(page.url());
  assert.equal(back.searchParams.get('state'), 'abc123');
  const code = back.searchParams.get('code') ?? '';
  assert.match(code, /^liu_/);

  const res = await fetch(`${BASE}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirect, client_id: 'Example Board App' }),
  });
  assert.equal(res.status, 200);
  const token = (await res.json()).access_token as string;
  const me = await fetch(`${BASE}/api/account`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal((await me.json()).username, name);

  // Denied: back to the app with access_denied and no code.
  await page.goto(`/oauth?${query}`);
  await page.getByTestId('oauth-deny').click();
  await page.waitForURL((u) => u.pathname === '/callback');
  const denied = new URL(page.url());
  assert.equal(denied.searchParams.get('error'), 'access_denied');
  assert.equal(denied.searchParams.get('code'), null);

  // A bad request is explained and offers no button.
  await page.goto('/oauth?response_type=code&client_id=x&redirect_uri=javascript:alert(1)');
  await page.getByTestId('form-error').filter({ hasText: /redirect_uri/ }).waitFor();
  assert.equal(await page.getByTestId('oauth-approve').count(), 0);
  await done(context, page);
});
