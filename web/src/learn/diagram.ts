//! A Learn diagram's chessground configuration as a pure function of the
//! board element's `data-*` values (`data-fen`, `data-arrows`,
//! `data-squares`, `data-orientation`, written by the server): a view-only
//! board with the arrows as auto-shapes and the squares highlighted.
import type { Config } from '@lichess-org/chessground/config';
import type { DrawShape } from '@lichess-org/chessground/draw';
import type { Key } from '@lichess-org/chessground/types';

/** The class chessground gives a highlighted square (styled in style.css). */
export const HIGHLIGHT_CLASS = 'learn-hl';

const SQUARE = /^[a-h][1-8]$/;
const BRUSHES = new Set(['green', 'red', 'blue']);

/** The arrows of `data-arrows` (`h5f7:green c4f7:red`) as chessground shapes; malformed ones are left out. */
export function parseArrows(attr: string | undefined): DrawShape[] {
  const shapes: DrawShape[] = [];
  for (const token of (attr ?? '').split(/\s+/)) {
    const [uci = '', brush = 'green'] = token.split(':');
    const orig = uci.slice(0, 2);
    const dest = uci.slice(2, 4);
    if (uci.length === 4 && SQUARE.test(orig) && SQUARE.test(dest) && BRUSHES.has(brush)) {
      shapes.push({ orig: orig as Key, dest: dest as Key, brush });
    }
  }
  return shapes;
}

/** The squares of `data-squares` (`f7 e8`). */
export function parseSquares(attr: string | undefined): Key[] {
  return (attr ?? '').split(/\s+/).filter((s) => SQUARE.test(s)) as Key[];
}

/** The chessground configuration of a diagram. */
export function diagramConfig(data: DOMStringMap, reducedMotion = false): Config {
  const fen = data.fen ?? '';
  return {
    fen: fen.split(' ')[0] ?? '',
    orientation: data.orientation === 'black' ? 'black' : 'white',
    turnColor: fen.split(' ')[1] === 'b' ? 'black' : 'white',
    viewOnly: true,
    coordinates: true,
    animation: { enabled: !reducedMotion, duration: 150 },
    highlight: {
      lastMove: false,
      check: false,
      custom: new Map(parseSquares(data.squares).map((k) => [k, HIGHLIGHT_CLASS])),
    },
    movable: { free: false, color: undefined },
    draggable: { enabled: false },
    selectable: { enabled: false },
    drawable: { enabled: false, visible: true, autoShapes: parseArrows(data.arrows) },
  };
}
