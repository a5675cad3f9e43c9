//! The roles page (`/mod/roles`): the site's moderators and admins, and,
//! for an admin, the form that gives an account a role or takes it away,
//! the site's settings (name, contact, sign-ups) and its invitations.
import type { SiteInfo } from '../api.js';
import { setSiteName, t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import { type Invite, newInvite, saveSite, setRole, siteAdmin, type StaffRole, staff } from './api.js';
import { actionError, type LoadError, loadError } from './model.js';

/** State of the roles page. */
export class ModRolesCtrl implements Controller {
  you: StaffRole | null = null;
  staff: { username: string; role: StaffRole }[] | null = null;
  error: LoadError | null = null;
  username = '';
  role: StaffRole | 'none' = 'moderator';
  /** The server's refusal of the last change. */
  formError: string | null = null;
  /** The last change made, to confirm it. */
  done: string | null = null;
  busy = false;
  /** The site's settings as edited (admins; null until loaded). */
  site: SiteInfo | null = null;
  invites: Invite[] = [];
  /** The link of the invitation just made. */
  inviteLink: string | null = null;
  siteError: string | null = null;
  siteSaved = false;
  private alive = true;

  constructor(readonly ctx: Ctx) {
    this.reload();
  }

  private reload(): void {
    staff()
      .then((s) => {
        this.you = s.you;
        this.staff = s.staff;
        if (s.you === 'admin' && !this.site) this.loadSite();
      })
      .catch((e: unknown) => (this.error = loadError(e)))
      .finally(() => this.alive && this.ctx.redraw());
  }

  /** Gives the typed account the chosen role. */
  submit(): void {
    if (this.busy) return;
    this.busy = true;
    this.formError = null;
    this.done = null;
    const name = this.username.trim();
    setRole(name, this.role)
      .then(() => {
        this.done = name;
        this.username = '';
        this.reload();
      })
      .catch((e: unknown) => (this.formError = actionError(e)))
      .finally(() => {
        this.busy = false;
        if (this.alive) this.ctx.redraw();
      });
  }

  private loadSite(): void {
    siteAdmin()
      .then((a) => {
        this.site = { ...a.settings };
        this.invites = a.invites;
      })
      .catch((e: unknown) => (this.siteError = actionError(e)))
      .finally(() => this.alive && this.ctx.redraw());
  }

  /** Saves the site's settings. */
  saveSite(): void {
    const s = this.site;
    if (this.busy || !s) return;
    this.busy = true;
    this.siteError = null;
    this.siteSaved = false;
    saveSite(s)
      .then((a) => {
        this.site = { ...a.settings };
        this.invites = a.invites;
        this.siteSaved = true;
        setSiteName(a.settings.name);
      })
      .catch((e: unknown) => (this.siteError = actionError(e)))
      .finally(() => {
        this.busy = false;
        if (this.alive) this.ctx.redraw();
      });
  }

  /** Makes an invitation and shows its link. */
  invite(): void {
    if (this.busy) return;
    this.busy = true;
    this.siteError = null;
    newInvite()
      .then((i) => {
        this.inviteLink = `${location.origin}${i.path}`;
        this.loadSite();
      })
      .catch((e: unknown) => (this.siteError = actionError(e)))
      .finally(() => {
        this.busy = false;
        if (this.alive) this.ctx.redraw();
      });
  }

  title(): string {
    return `${t('mod.roles.title')} · ${t('site.name')}`;
  }

  destroy(): void {
    this.alive = false;
  }
}
