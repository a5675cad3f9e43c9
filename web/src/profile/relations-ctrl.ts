//! The relations part of a profile page: the player's follows and
//! followers (with who is online), and the viewer's follow and block
//! buttons.
import type { Ctx } from '../page.js';
import { changeRelation, getRelations, type RelChange, relationErrorText, type Relations } from '../relations.js';

/** State of a profile's relations. */
export class RelationsCtrl {
  rel: Relations | null = null;
  busy = false;
  error: string | null = null;
  private alive = true;

  constructor(
    private readonly ctx: Ctx,
    readonly username: string,
  ) {
    this.load();
  }

  private load(): void {
    getRelations(this.username)
      .then((r) => {
        this.rel = r;
      })
      .catch(() => {
        this.rel = null;
      })
      .finally(() => {
        if (this.alive) this.ctx.redraw();
      });
  }

  /** Follows, unfollows, blocks or unblocks the player, then shows the lists again. */
  change(change: RelChange): void {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    this.ctx.redraw();
    changeRelation(change, this.username)
      .then(() => this.load())
      .catch((e: unknown) => {
        this.error = relationErrorText(e);
      })
      .finally(() => {
        this.busy = false;
        if (this.alive) this.ctx.redraw();
      });
  }

  destroy(): void {
    this.alive = false;
  }
}
