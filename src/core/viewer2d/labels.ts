import { PLAN_STYLE as S } from './style.js';
import { svg } from './svg.js';

/**
 * Space names in screen space: the texts keep their pixel size at every zoom (only
 * their positions follow the plan). A name too wide for its space is set smaller, down
 * to a still readable size, and hidden when even that does not fit, instead of spilling
 * over its neighbours. Names are set as text nodes (textContent), never parsed as markup.
 */

const MIN_SIZE = 9;
export interface LabelItem {
  id: string;
  text: string;
  /** Anchor in SVG user space. */
  x: number;
  y: number;
  /** Size of the space's box in SVG user space. */
  width: number;
  height: number;
}

interface Label {
  item: LabelItem;
  node: SVGTextElement;
  /** Estimated width in pixels. */
  textWidth: number;
}

export class LabelLayer {
  readonly group: SVGGElement;
  private labels: Label[] = [];

  constructor(parent: SVGGElement) {
    this.group = svg('g', {
      class: 'labels',
      'font-family': S.labelFont.replace(/^\S+\s/, ''),
      'font-size': S.labelSize,
      fill: S.labelFill,
      stroke: S.labelHalo,
      'stroke-width': 3,
      'stroke-linejoin': 'round',
      'paint-order': 'stroke',
      'text-anchor': 'middle',
      'dominant-baseline': 'central',
      'pointer-events': 'none',
    }, parent);
  }

  set(items: LabelItem[]) {
    this.group.replaceChildren();
    this.labels = items
      .filter((item) => item.text !== '')
      .map((item) => {
        const node = svg('text', {}, this.group);
        node.textContent = item.text;
        return { item, node, textWidth: estimateWidth(item.text) };
      });
  }

  /** Places the labels for a zoom (k: pixels per unit, tx/ty: offset in pixels). */
  update(k: number, tx: number, ty: number) {
    for (const { item, node, textWidth } of this.labels) {
      // textWidth is measured at the full label size; scale it down to fit when needed.
      const room = item.width * k - 4;
      const size = Math.min(S.labelSize, (S.labelSize * room) / textWidth);
      if (size < MIN_SIZE || item.height * k < size + 2) {
        node.setAttribute('display', 'none');
        continue;
      }
      node.removeAttribute('display');
      if (size < S.labelSize) node.setAttribute('font-size', size.toFixed(1));
      else node.removeAttribute('font-size');
      node.setAttribute('x', (item.x * k + tx).toFixed(1));
      node.setAttribute('y', (item.y * k + ty).toFixed(1));
    }
  }

  /** The labels shown now (for tests and tools): id, text and pixel position. */
  visible(): Array<{ id: string; text: string; x: number; y: number }> {
    return this.labels
      .filter((l) => l.node.getAttribute('display') !== 'none')
      .map((l) => ({ id: l.item.id, text: l.node.textContent ?? '', x: Number(l.node.getAttribute('x')), y: Number(l.node.getAttribute('y')) }));
  }
}

/** A close upper estimate of a text's width at the label size (no layout needed). */
function estimateWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += /[il.,:;'|!1 ]/.test(ch) ? 0.32 : /[MWmw@%]/.test(ch) ? 0.9 : /[A-Z0-9]/.test(ch) ? 0.66 : 0.56;
  return w * S.labelSize;
}
