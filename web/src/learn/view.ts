//! The Learn pages' views: the index and an article built from the JSON of
//! /api/learn, or the server's own rendering taken over as it is; and the
//! enhancement of an article's HTML once in the DOM — each server-drawn SVG
//! diagram replaced by a view-only chessground (the element keeps its
//! `data-testid="learn-board"`), each exercise block mounted from the
//! exercises' registry. Links inside articles are ordinary links, which the
//! app shell opens within the app.
import { Chessground } from '@lichess-org/chessground';
import { h, type VNode } from 'snabbdom';
import { t } from '../i18n.js';
import { learnPuzzleLinks } from '../puzzle/learn-links.js';
import { diagramConfig } from './diagram.js';
import { mountExercise } from './exercises/index.js';
import type { LearnCtrl, LearnLink } from './ctrl.js';

/** Upgrades the diagrams and exercises under `root`; answers the function that removes what it mounted. */
export function enhance(root: HTMLElement): () => void {
  const cleanups: (() => void)[] = [];
  const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  for (const fig of root.querySelectorAll<HTMLElement>('[data-testid="learn-board"]')) {
    const wrap = document.createElement('div');
    wrap.className = 'learn-ground';
    const svg = fig.querySelector('svg.board-svg');
    const label = svg?.getAttribute('aria-label');
    if (label) {
      wrap.setAttribute('role', 'img');
      wrap.setAttribute('aria-label', label);
    }
    if (svg) svg.replaceWith(wrap);
    else fig.prepend(wrap);
    const ground = Chessground(wrap, diagramConfig(fig.dataset, reduced));
    cleanups.push(() => ground.destroy());
  }
  for (const el of root.querySelectorAll<HTMLElement>('.exercise[data-exercise]')) {
    cleanups.push(mountExercise(el, el.dataset.exercise ?? '', el.dataset));
  }
  return () => {
    for (const c of cleanups.splice(0)) c();
  };
}

/** Hooks that enhance an element's server-made HTML when it is inserted and clean up when it goes. */
function enhanced(): { insert(v: VNode): void; destroy(v: VNode): void } {
  let dispose: (() => void) | null = null;
  return {
    insert: (v) => {
      dispose = enhance(v.elm as HTMLElement);
    },
    destroy: () => {
      dispose?.();
      dispose = null;
    },
  };
}

function pager(prev: LearnLink | null, next: LearnLink | null): VNode {
  const link = (l: LearnLink | null, rel: 'prev' | 'next'): VNode | null =>
    l &&
    h(`a.learn-${rel}`, { attrs: { rel, href: `/learn/${l.slug}`, 'data-testid': `learn-${rel}` } }, [
      h('span.learn-pager-label', t(rel === 'prev' ? 'learn.prev' : 'learn.next')),
      ' ',
      h('span.learn-pager-title', l.title),
    ]);
  return h('nav.learn-pager', { attrs: { 'aria-label': t('learn.pager') } }, [link(prev, 'prev'), link(next, 'next')]);
}

function articleView(ctrl: LearnCtrl): VNode | null {
  const a = ctrl.article;
  if (!a) return null;
  const section = ctrl.sectionTitle(a.section);
  return h('article.learn-page', { key: `${a.lang}/${a.slug}`, attrs: { 'data-testid': 'learn-page', 'data-slug': a.slug, lang: a.lang } }, [
    h('nav.learn-crumbs', [h('a', { attrs: { href: '/learn' } }, t('learn.title')), ' ', h('span', { attrs: { 'aria-hidden': 'true' } }, '›'), ` ${section}`]),
    h('h1', a.title),
    a.lang !== ctrl.lang ? h('p.learn-untranslated', { attrs: { lang: ctrl.lang } }, t('learn.untranslated')) : null,
    h('div.learn-body', { props: { innerHTML: a.html }, hook: enhanced() }),
    pager(a.prev, a.next),
  ]);
}

function indexView(ctrl: LearnCtrl): VNode | null {
  const index = ctrl.index;
  if (!index) return null;
  return h('section.learn-index', { key: `index/${index.lang}`, attrs: { 'data-testid': 'learn-index' } }, [
    h('h1', t('learn.title')),
    h('p.learn-intro', t('learn.intro')),
    ...index.sections.map((s) =>
      h('section.learn-section', { attrs: { 'data-section': s.section } }, [
        h('h2', s.title),
        h(
          'ol',
          s.pages.map((p) => h('li', [h('a', { attrs: { href: `/learn/${p.slug}`, 'data-testid': 'learn-index-link' } }, p.title)])),
        ),
      ]),
    ),
  ]);
}

function missingView(): VNode {
  return h('article.learn-page.learn-missing', { attrs: { 'data-testid': 'learn-not-found' } }, [
    h('h1', t('learn.not_found_title')),
    h('p', t('learn.not_found')),
    h('p', [h('a', { attrs: { href: '/learn' } }, t('learn.back'))]),
  ]);
}

/** The Learn page (after a language switch, the controller fetches it again in the new language). */
export function learnView(ctrl: LearnCtrl): VNode {
  ctrl.followLang();
  let body: VNode | null;
  if (ctrl.server !== null) {
    // The server's rendering of this very page, in this language: shown as it came.
    body = h('div.learn-server', { key: 'server', props: { innerHTML: ctrl.server.html }, hook: enhanced() });
  } else if (ctrl.error === 'missing') {
    body = missingView();
  } else if (ctrl.error === 'network') {
    body = h('div.learn-error', { attrs: { role: 'alert' } }, [
      h('p', t('learn.error')),
      h('button.button', { attrs: { type: 'button' }, on: { click: () => ctrl.reload() } }, t('learn.retry')),
    ]);
  } else {
    body = ctrl.slug === null ? indexView(ctrl) : articleView(ctrl);
  }
  return h('div.learn', [body ?? h('p.learn-loading', { attrs: { 'aria-live': 'polite' } }, t('learn.loading')), ctrl.error ? null : learnPuzzleLinks(ctrl.slug)]);
}
