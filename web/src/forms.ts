//! Small view helpers for the account forms: a labelled input bound to a
//! controller field, and the error line.
import { h, type VNode } from 'snabbdom';

/** A labelled text or password input; `set` receives every change. */
export function field(opts: {
  id: string;
  label: string;
  type: 'text' | 'password';
  value: string;
  set: (v: string) => void;
  autocomplete: string;
  testid: string;
  help?: string;
}): VNode {
  const helpId = `${opts.id}-help`;
  return h('div.field.wide', [
    h('label', { attrs: { for: opts.id } }, opts.label),
    h('input', {
      attrs: {
        id: opts.id,
        name: opts.id,
        type: opts.type,
        autocomplete: opts.autocomplete,
        autocapitalize: 'off',
        spellcheck: 'false',
        required: true,
        'aria-describedby': opts.help ? helpId : false,
        'data-testid': opts.testid,
      },
      props: { value: opts.value },
      on: { input: (e: Event) => opts.set((e.target as HTMLInputElement).value) },
    }),
    opts.help ? h('p.muted.small', { attrs: { id: helpId } }, opts.help) : null,
  ]);
}

/** The form's error line (announced when it changes). */
export function formError(text: string | null, testid = 'form-error'): VNode {
  return h('p.form-error', { attrs: { role: 'alert', 'data-testid': testid } }, text ?? '');
}
