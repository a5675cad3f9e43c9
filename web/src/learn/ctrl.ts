//! The Learn pages' controller (`/learn` and `/learn/{slug}`). On the first
//! page of a visit the server has already rendered the page into the app's
//! root (readable without JavaScript, its `.page` marked
//! `data-server-rendered`): it is taken over as it is. Pages
//! opened within the app, or again after a language switch, come from
//! /api/learn and /api/learn/{slug} (the server picks the language from the
//! cookie the switch sets).
import { type Lang, lang, t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';

/** A link to a page: its slug and title. */
export interface LearnLink {
  slug: string;
  title: string;
}

/** GET /api/learn. */
export interface LearnIndex {
  lang: string;
  sections: { section: string; title: string; pages: LearnLink[] }[];
}

/** GET /api/learn/{slug}. */
export interface LearnArticle {
  /** The language of the text (English while the page is not translated). */
  lang: string;
  slug: string;
  section: string | null;
  title: string;
  /** The page without its title, rendered by the server (escaped, with its diagrams as SVG). */
  html: string;
  prev: LearnLink | null;
  next: LearnLink | null;
}

/** The server's rendering of the current page, found in the app's root before the app replaced it. */
export interface ServerPage {
  html: string;
  title: string;
}

/** Answers `path`'s JSON, or throws the HTTP status (0 for a network failure). */
async function getJson<T>(path: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, { credentials: 'same-origin' });
  } catch {
    throw 0;
  }
  if (!res.ok) throw res.status;
  return (await res.json()) as T;
}

/** Takes the server-rendered content of the Learn page `slug` (null: the index) out of the document, if it is there. */
export function takeServerPage(doc: Document, slug: string | null): ServerPage | null {
  const page = doc.querySelector<HTMLElement>('#app > main > .page[data-server-rendered]');
  if (!page) return null;
  const mine =
    slug === null
      ? page.querySelector('[data-testid="learn-index"]')
      : page.querySelector(`[data-testid="learn-page"][data-slug="${CSS.escape(slug)}"], [data-testid="learn-not-found"]`);
  return mine ? { html: page.innerHTML, title: doc.title } : null;
}

/** State of a Learn page. */
export class LearnCtrl implements Controller {
  index: LearnIndex | null = null;
  article: LearnArticle | null = null;
  /** The server's rendering, while it is the page shown. */
  server: ServerPage | null;
  error: 'missing' | 'network' | null = null;
  /** The language the content was asked in. */
  lang: Lang = lang();
  private alive = true;
  private loads = 0;

  constructor(
    readonly ctx: Ctx,
    /** The page's slug; null for the index. */
    readonly slug: string | null,
  ) {
    this.server = takeServerPage(document, slug);
    if (!this.server) this.load();
  }

  /** Fetches the page again in the current language, showing that it loads. */
  reload(): void {
    this.load();
    this.ctx.redraw();
  }

  /** Fetches the page in the current language. */
  private load(): void {
    const mine = ++this.loads;
    this.lang = lang();
    this.server = null;
    this.error = null;
    const done = (): void => {
      if (this.alive && mine === this.loads) this.ctx.redraw();
    };
    // The index gives the section names, which an article's breadcrumb shows.
    const index = getJson<LearnIndex>('/api/learn').then((i) => {
      if (mine === this.loads) this.index = i;
    });
    const article =
      this.slug === null
        ? Promise.resolve()
        : getJson<LearnArticle>(`/api/learn/${encodeURIComponent(this.slug)}`).then((a) => {
            if (mine === this.loads) this.article = a;
          });
    Promise.all([index, article])
      .catch((status: unknown) => {
        if (mine === this.loads) this.error = status === 404 ? 'missing' : 'network';
      })
      .finally(done);
  }

  /** The name of `section` in the current language (from the index), or nothing while it is not known. */
  sectionTitle(section: string | null): string {
    return this.index?.sections.find((s) => s.section === section)?.title ?? '';
  }

  /** A language switch redraws the app: fetches the page again in the new language (once the redraw is over). */
  followLang(): void {
    if (this.lang !== lang()) queueMicrotask(() => this.alive && this.lang !== lang() && this.reload());
  }

  title(): string {
    if (this.server) return this.server.title;
    const site = t('site.name');
    if (this.error === 'missing') return `${t('learn.not_found_title')} · ${site}`;
    if (this.slug !== null && this.article) return `${this.article.title} · ${site}`;
    return `${t('learn.title')} · ${site}`;
  }

  destroy(): void {
    this.alive = false;
  }
}
