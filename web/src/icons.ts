//! Line icons drawn for Ply Yard (24×24, stroked with the text colour).
import { h, type VNode } from 'snabbdom';

const PATHS = {
  flip: 'M7 4v15M7 4 4 7M7 4l3 3M17 20V5M17 20l-3-3M17 20l3-3',
  undo: 'M9 14 4 9l5-5M4 9h10.5a5.5 5.5 0 0 1 0 11H11',
  flag: 'M5 21V4M5 4h12l-2.5 4.5L17 13H5',
  plus: 'M12 5v14M5 12h14',
  download: 'M12 4v11M7.5 10.5 12 15l4.5-4.5M5 20h14',
  soundOn: 'M4 9.5v5h3.5L12 18V6L7.5 9.5H4ZM15.5 9a4 4 0 0 1 0 6M18 6.5a7.5 7.5 0 0 1 0 11',
  soundOff: 'M4 9.5v5h3.5L12 18V6L7.5 9.5H4ZM16 9.5l5 5M21 9.5l-5 5',
  home: 'M4 11 12 4l8 7M6 9.5V20h12V9.5',
  enter: 'M20 5v7a3 3 0 0 1-3 3H5M9 11l-4 4 4 4',
  half: 'M6 5v6M4.5 6.5 6 5M14 19h5M14 19l4-4.5a2 2 0 1 0-3.4-1.9M17 5 7 19',
  cross: 'M6 6l12 12M18 6 6 18',
  exit: 'M14 4h5v16h-5M10 8l-4 4 4 4M6 12h10',
  repeat: 'M4 12a8 8 0 0 1 13.7-5.6L20 8.5M20 4v4.5h-4.5M20 12a8 8 0 0 1-13.7 5.6L4 15.5M4 20v-4.5h4.5',
  copy: 'M9 9h10v11H9zM5 15V4h10',
} as const;

/** Name of an icon. */
export type IconName = keyof typeof PATHS;

/** An inline SVG icon, hidden from assistive technology (the control carries the label). */
export function icon(name: IconName): VNode {
  return h('svg.icon', { attrs: { viewBox: '0 0 24 24', 'aria-hidden': 'true', focusable: 'false' } }, [h('path', { attrs: { d: PATHS[name] } })]);
}
