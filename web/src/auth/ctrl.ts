//! The sign-up and log-in pages' controller (one form, two modes).
import { login, type SiteInfo, signup, siteInfo } from '../api.js';
import { accountErrorText } from '../account/errors.js';
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import { nextPath } from '../route.js';

/** Which form the page shows. */
export type AuthMode = 'signup' | 'login';

/** State of the sign-up or log-in page. */
export class AuthCtrl implements Controller {
  username = '';
  password = '';
  /** The invitation code (`?invite=`), while sign-ups are by invitation. */
  invite = new URLSearchParams(location.search).get('invite') ?? '';
  /** Who may sign up, and whom to contact (null until known). */
  site: SiteInfo | null = null;
  error: string | null = null;
  busy = false;
  /** Where to go after logging in (`?next=`, else the home page). */
  readonly next = nextPath(location.search);
  private alive = true;

  constructor(
    readonly ctx: Ctx,
    readonly mode: AuthMode,
  ) {
    siteInfo()
      .then((s) => {
        this.site = s;
        if (this.alive) this.ctx.redraw();
      })
      .catch(() => {});
  }

  title(): string {
    return `${t(this.mode === 'signup' ? 'auth.signup.title' : 'auth.login.title')} · ${t('site.name')}`;
  }

  destroy(): void {
    this.alive = false;
  }

  /** Sends the form; on success the header shows the account and the page named by `?next=` (else the home page) opens. */
  submit(): void {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    this.ctx.redraw();
    (this.mode === 'signup' ? signup(this.username.trim(), this.password, this.invite) : login(this.username.trim(), this.password))
      .then((a) => {
        if (!this.alive) return;
        this.ctx.setAccount({ username: a.username, created_at: '' });
        this.ctx.navigate(this.next);
      })
      .catch((e: unknown) => {
        if (!this.alive) return;
        this.busy = false;
        this.error = accountErrorText(e);
        this.ctx.redraw();
        document.querySelector<HTMLElement>('[data-testid="password"]')?.focus();
      });
  }
}
