//! Entry point: the header (brand, language switcher) and the router
//! (`/` home, `/game/{id}` a game).
import { h, replace } from './dom.js';
import { gamePage } from './game.js';
import { homePage } from './home.js';
import { initLang, isLang, LANGS, lang, onLangChange, setLang, t, TABLES } from './i18n.js';
import { unlockAudioOnGesture } from './sound.js';

function header(): HTMLElement {
  const select = h('select', { id: 'lang-select', 'data-testid': 'lang-select' });
  for (const l of LANGS) {
    select.append(h('option', { value: l, lang: l, selected: l === lang() }, TABLES[l]['lang.name']));
  }
  select.addEventListener('change', () => {
    if (isLang(select.value)) setLang(select.value);
  });
  const label = h('label', { for: 'lang-select', class: 'visually-hidden' });
  const skip = h('a', { href: '#main', class: 'skip-link' });
  const brandName = h('span', { class: 'brand-name' });
  const tagline = h('span', { class: 'brand-tagline' });
  const brand = h(
    'a',
    { href: '/', class: 'brand', 'data-testid': 'home-link' },
    h('img', { src: '/assets/favicon.svg', alt: '', width: 28, height: 28 }),
    brandName,
    tagline,
  );
  const texts = () => {
    label.textContent = t('nav.language');
    skip.textContent = t('nav.skip');
    brandName.textContent = t('site.name');
    tagline.textContent = t('site.tagline');
    brand.setAttribute('aria-label', `${t('site.name')} · ${t('nav.home')}`);
    select.value = lang();
  };
  texts();
  onLangChange(texts);
  return h('header', { class: 'site-header' }, skip, h('div', { class: 'header-inner' }, brand, h('div', { class: 'lang' }, label, select)));
}

function start(): void {
  initLang();
  unlockAudioOnGesture();
  const app = document.getElementById('app');
  if (!app) return;
  const main = h('main', { id: 'main', tabindex: -1 });
  replace(app, header(), main);

  const m = /^\/game\/([^/]+)\/?$/.exec(location.pathname);
  const rerender = m ? gamePage(main, decodeURIComponent(m[1]!)) : homePage(main);
  onLangChange(() => rerender());
}

start();
