//! The authorization page's controller (`/oauth?response_type=code&…`):
//! asks the server whether the request is valid and what it wants, then
//! sends the player's answer and follows the redirect back to the app.
import { approveOAuth, describeOAuth, type OAuthRequest } from '../api.js';
import { accountErrorText } from '../account/errors.js';
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';

/** State of the authorization page. */
export class OAuthCtrl implements Controller {
  request: OAuthRequest | null = null;
  error: string | null = null;
  busy = false;
  private alive = true;

  constructor(
    readonly ctx: Ctx,
    readonly search: string,
  ) {
    describeOAuth(search)
      .then((r) => {
        this.request = r;
      })
      .catch((e: unknown) => {
        this.error = accountErrorText(e);
      })
      .finally(() => {
        if (this.alive) this.ctx.redraw();
      });
  }

  title(): string {
    return `${t('oauth.title')} · ${t('site.name')}`;
  }

  destroy(): void {
    this.alive = false;
  }

  answer(approve: boolean): void {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    this.ctx.redraw();
    approveOAuth(this.search, approve)
      .then((to) => location.assign(to))
      .catch((e: unknown) => {
        this.busy = false;
        this.error = accountErrorText(e);
        if (this.alive) this.ctx.redraw();
      });
  }
}
