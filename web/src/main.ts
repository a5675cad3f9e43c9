//! Entry point: the page's language and table, the account, then the app.
import { currentAccount } from './api.js';
import { App } from './app.js';
import { initLang } from './i18n.js';
import { unlockAudioOnGesture } from './sound.js';

async function start(): Promise<void> {
  unlockAudioOnGesture();
  const [, account] = await Promise.all([initLang(), currentAccount().catch(() => null)]);
  const root = document.getElementById('app');
  if (root) new App(root, account);
}

void start();
