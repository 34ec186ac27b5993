import { CUT_KINDS, type CutKind, type PlanStorey } from '../plan/protocol.js';
import type { Affine } from './affine.js';
import type { LoadedModel } from './plan-store.js';
import { PLAN_STYLE as S } from './style.js';
import { pathData } from './path-data.js';
import { svg } from './svg.js';

/**
 * The SVG of one loaded model: a group carrying the model's transformation, holding a
 * group per storey (made the first time the storey is shown). A storey draws, bottom
 * to top: space fills, what lies below the cut (thin), the cut (walls and other solids
 * filled, doors and windows as lines) and the doors' plan symbols.
 */
export class ModelLayer {
  readonly group: SVGGElement;
  private readonly storeys = new Map<number, StoreyLayer>();

  constructor(
    readonly model: LoadedModel,
    private readonly origin: [number, number],
    parent: SVGGElement,
    /** The fill of a space now (selection, colour), for storeys drawn later. */
    private readonly fillOf: (spaceId: string) => string,
  ) {
    this.group = svg('g', { class: 'model', 'data-model': model.id }, parent);
  }

  /** Sets the group's transform: the model's transformation, seen in SVG user space. */
  setTransform(svgTransform: Affine) {
    if (svgTransform.isIdentity) this.group.removeAttribute('transform');
    else this.group.setAttribute('transform', svgTransform.toSvg());
  }

  storey(index: number): StoreyLayer {
    let layer = this.storeys.get(index);
    if (!layer) {
      layer = new StoreyLayer(this.model, index, this.origin, this.fillOf);
      // Keep storeys in elevation order in the DOM (later ones on top).
      const after = [...this.storeys.entries()].filter(([i]) => i > index).sort((a, b) => a[0] - b[0])[0]?.[1];
      this.group.insertBefore(layer.group, after?.group ?? null);
      this.storeys.set(index, layer);
    }
    return layer;
  }

  /** The storey's layer if it has been drawn. */
  drawn(index: number): StoreyLayer | undefined {
    return this.storeys.get(index);
  }

  existing(): Iterable<StoreyLayer> {
    return this.storeys.values();
  }

  remove() {
    this.group.remove();
  }
}

const STROKE: Record<CutKind, string> = { solid: S.solidStroke, door: S.doorStroke, window: S.windowStroke, other: S.otherStroke };

export class StoreyLayer {
  readonly group: SVGGElement;
  readonly storey: PlanStorey;
  /** Space object id -> its fill path. */
  readonly spacePaths = new Map<string, SVGPathElement>();

  constructor(model: LoadedModel, index: number, [ox, oy]: [number, number], fillOf: (spaceId: string) => string) {
    const storey = model.plan.storeys[index];
    this.storey = storey;
    this.group = svg('g', { class: 'storey', 'data-storey': storey.objectId, display: 'none' });
    const spaces = svg('g', { class: 'spaces' }, this.group);
    for (const i of storey.spaces) {
      const space = model.plan.spaces[i];
      const path = svg('path', {
        d: pathData(space.rings, ox, oy),
        fill: fillOf(space.objectId),
        stroke: S.spaceStroke,
        'stroke-width': S.spaceStrokeWidth,
        'vector-effect': 'non-scaling-stroke',
        'fill-rule': 'nonzero',
        'data-id': space.objectId,
      }, spaces);
      this.spacePaths.set(space.objectId, path);
    }
    const common = { fill: 'none', 'vector-effect': 'non-scaling-stroke', 'stroke-linejoin': 'round', 'stroke-linecap': 'round' };
    if (storey.below.owners.length) {
      svg('path', { ...common, class: 'below', d: pathData(storey.below, ox, oy), stroke: S.belowStroke, 'stroke-width': S.belowStrokeWidth }, this.group);
    }
    const cut = svg('g', { class: 'cut' }, this.group);
    for (const kind of CUT_KINDS) {
      const lines = storey.cut[kind];
      if (!lines.owners.length) continue;
      if (kind === 'solid') {
        // One path per object: its loops filled even-odd (holes stay open), overlaps stay filled.
        const owners = [...new Set(lines.owners)];
        const group = svg('g', { class: 'cut-solid', fill: S.solidFill, stroke: S.solidStroke, 'stroke-width': S.solidStrokeWidth, 'fill-rule': 'evenodd', 'stroke-linejoin': 'round' }, cut);
        for (const owner of owners) {
          svg('path', { d: pathData(lines, ox, oy, (i) => lines.owners[i] === owner), 'vector-effect': 'non-scaling-stroke' }, group);
        }
      } else {
        svg('path', { ...common, class: `cut-${kind}`, d: pathData(lines, ox, oy), stroke: STROKE[kind], 'stroke-width': S.cutStrokeWidth }, cut);
      }
    }
    if (storey.symbols.owners.length) {
      svg('path', { ...common, class: 'symbols', d: pathData(storey.symbols, ox, oy), stroke: S.symbolStroke, 'stroke-width': S.symbolStrokeWidth }, this.group);
    }
  }

  setVisible(visible: boolean) {
    if (visible) this.group.removeAttribute('display');
    else this.group.setAttribute('display', 'none');
  }

  get visible(): boolean {
    return this.group.getAttribute('display') !== 'none';
  }
}
