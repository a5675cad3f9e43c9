//! The preferences page (`/account/preferences`): every preference, each
//! change saved at once (to the account, or in this browser without one).
import { ApiError } from '../api.js';
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import { changePrefs, loadAccountPrefs, type Prefs, prefs } from '../prefs.js';

/** State of the preferences page. */
export class PrefsCtrl implements Controller {
  current: Prefs = prefs();
  /** The last change was saved (`saved`) or refused (the message). */
  status: 'saved' | string | null = null;
  private alive = true;

  constructor(readonly ctx: Ctx) {
    if (ctx.account()) {
      loadAccountPrefs()
        .then((p) => {
          this.current = p;
          if (this.alive) ctx.redraw();
        })
        .catch(() => undefined);
    }
  }

  /** Changes one preference. */
  set<K extends keyof Prefs>(key: K, value: Prefs[K]): void {
    changePrefs({ [key]: value } as Partial<Prefs>, this.ctx.account() !== null)
      .then((p) => {
        this.current = p;
        this.status = 'saved';
      })
      .catch((e: unknown) => {
        this.status = e instanceof ApiError ? e.message : t('error.network');
      })
      .finally(() => {
        if (this.alive) this.ctx.redraw();
      });
  }

  title(): string {
    return `${t('prefs.title')} · ${t('site.name')}`;
  }

  destroy(): void {
    this.alive = false;
  }
}
