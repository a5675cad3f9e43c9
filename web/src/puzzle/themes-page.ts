//! The themes page (`/training/themes`): every theme by group, each a link
//! to its trainer. Nothing to load: the list is the vocabulary the server
//! accepts (./themes.ts).
import { t } from '../i18n.js';
import type { Controller } from '../page.js';

/** The themes page. */
export class ThemesCtrl implements Controller {
  title(): string {
    return t('puzzle.themes.title');
  }

  destroy(): void {}
}
