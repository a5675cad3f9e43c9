//! The API tokens page's controller (`/account/oauth/token`, also
//! `/account/oauth/token/create?scopes[]=bot:play&description=…`, the link
//! lichess tools print): create a personal token (its secret shown once),
//! list the account's tokens, revoke one.
import { type ApiToken, type CreatedToken, createToken, listTokens, revokeToken, SCOPES, type Scope } from '../api.js';
import { accountErrorText } from '../account/errors.js';
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';

/** The scopes and description a `create?scopes[]=…&description=…` link asks for (unknown scopes dropped). */
export function prefill(search: string): { scopes: Scope[]; description: string } {
  const q = new URLSearchParams(search);
  const asked = [...q.getAll('scopes[]'), ...q.getAll('scopes')].flatMap((s) => s.split(/[ ,]/));
  return {
    scopes: SCOPES.filter((s) => asked.includes(s)),
    description: (q.get('description') ?? '').slice(0, 200),
  };
}

/** State of the tokens page. */
export class TokensCtrl implements Controller {
  description: string;
  scopes: Set<Scope>;
  tokens: ApiToken[] | null = null;
  /** The token just created: its secret is shown this once. */
  created: CreatedToken | null = null;
  error: string | null = null;
  busy = false;
  private alive = true;

  constructor(
    readonly ctx: Ctx,
    search: string,
  ) {
    const p = prefill(search);
    this.description = p.description;
    this.scopes = new Set(p.scopes);
    if (ctx.account()) this.load();
  }

  title(): string {
    return `${t('tokens.title')} · ${t('site.name')}`;
  }

  destroy(): void {
    this.alive = false;
  }

  private load(): void {
    listTokens()
      .then((list) => {
        this.tokens = list;
      })
      .catch((e: unknown) => {
        this.error = accountErrorText(e);
      })
      .finally(() => {
        if (this.alive) this.ctx.redraw();
      });
  }

  toggle(scope: Scope, on: boolean): void {
    if (on) this.scopes.add(scope);
    else this.scopes.delete(scope);
    this.ctx.redraw();
  }

  create(): void {
    if (this.busy) return;
    this.error = null;
    if (this.description.trim() === '') this.error = t('tokens.error.description');
    else if (this.scopes.size === 0) this.error = t('tokens.error.scopes');
    if (this.error) {
      this.ctx.redraw();
      return;
    }
    this.busy = true;
    this.created = null;
    this.ctx.redraw();
    createToken(this.description.trim(), SCOPES.filter((s) => this.scopes.has(s)))
      .then((c) => {
        this.created = c;
        this.description = '';
        this.load();
      })
      .catch((e: unknown) => {
        this.error = accountErrorText(e);
      })
      .finally(() => {
        this.busy = false;
        if (this.alive) this.ctx.redraw();
      });
  }

  revoke(id: string): void {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    revokeToken(id)
      .then(() => {
        if (this.created?.id === id) this.created = null;
        this.load();
      })
      .catch((e: unknown) => {
        this.error = accountErrorText(e);
      })
      .finally(() => {
        this.busy = false;
        if (this.alive) this.ctx.redraw();
      });
  }
}
