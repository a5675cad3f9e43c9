//! The account page's controller: change password, delete the account.
import { ApiError, changePassword, deleteAccount } from '../api.js';
import { accountErrorText } from './errors.js';
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';

/** State of the account page. */
export class AccountCtrl implements Controller {
  current = '';
  next = '';
  passwordError: string | null = null;
  passwordChanged = false;
  deletePassword = '';
  deleteError: string | null = null;
  busy = false;
  private alive = true;

  constructor(readonly ctx: Ctx) {}

  title(): string {
    return `${t('account.title')} · ${t('site.name')}`;
  }

  destroy(): void {
    this.alive = false;
  }

  /** A 401 means the session ended elsewhere: the header shows the visitor as anonymous. */
  private lost(e: unknown): void {
    if (e instanceof ApiError && e.status === 401) this.ctx.setAccount(null);
  }

  changePassword(): void {
    if (this.busy) return;
    this.busy = true;
    this.passwordError = null;
    this.passwordChanged = false;
    this.ctx.redraw();
    changePassword(this.current, this.next)
      .then(() => {
        this.current = '';
        this.next = '';
        this.passwordChanged = true;
      })
      .catch((e: unknown) => {
        this.passwordError = accountErrorText(e);
        this.lost(e);
      })
      .finally(() => {
        this.busy = false;
        if (this.alive) this.ctx.redraw();
      });
  }

  deleteAccount(): void {
    if (this.busy) return;
    this.busy = true;
    this.deleteError = null;
    this.ctx.redraw();
    deleteAccount(this.deletePassword)
      .then(() => {
        this.ctx.setAccount(null);
        if (this.alive) this.ctx.navigate('/');
      })
      .catch((e: unknown) => {
        this.busy = false;
        this.deleteError = accountErrorText(e);
        this.lost(e);
        if (this.alive) this.ctx.redraw();
      });
  }
}
