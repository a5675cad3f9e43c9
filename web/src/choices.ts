//! A group of choices shown as chips: a fieldset of radio inputs, one of
//! them checked, shared by the forms that pick among a few options.
import { h, type VNode } from 'snabbdom';
import { type Key, t } from './i18n.js';

/** What a choice group shows and does. */
export interface Choices<T extends string> {
  /** The fieldset's legend. */
  legend: Key;
  /** The radio inputs' `name` (unique in the page). */
  name: string;
  options: readonly T[];
  current: T;
  /** An option's label. */
  label: (o: T) => Key;
  /** An option's text as shown, when not a translation (`5+3`). */
  text?: (o: T) => string | null;
  /** An option's `data-testid`. */
  testid: (o: T) => string;
  choose: (o: T) => void;
}

/** The group as a fieldset of radio chips. */
export function choiceGroup<T extends string>(c: Choices<T>): VNode {
  return h('fieldset.choice-group', [
    h('legend', t(c.legend)),
    h(
      'div.chips',
      c.options.map((o) =>
        h('label.chip', [
          h('input', {
            attrs: { type: 'radio', name: c.name, value: o, 'data-testid': c.testid(o) },
            props: { checked: o === c.current },
            on: { change: () => c.choose(o) },
          }),
          h('span', c.text?.(o) ?? t(c.label(o))),
        ]),
      ),
    ),
  ]);
}
