import {
  IFCBOOLEANCLIPPINGRESULT, IFCBOOLEANRESULT, IFCMAPPEDITEM, IFCMATERIALDEFINITIONREPRESENTATION, IFCPRODUCTDEFINITIONSHAPE,
  IFCRELASSOCIATESMATERIAL, IFCREPRESENTATIONMAP, IFCSHAPEREPRESENTATION, IFCSTYLEDITEM, type IfcAPI,
} from 'web-ifc';
import { rawLine, refOf } from './raw-lines.js';
/** The lines a product's shape is made of, down to its representation items. */
const SHAPE_TYPES = new Set([IFCPRODUCTDEFINITIONSHAPE, IFCSHAPEREPRESENTATION, IFCMAPPEDITEM, IFCREPRESENTATIONMAP, IFCBOOLEANRESULT, IFCBOOLEANCLIPPINGRESULT]);
/** Material selects are shallow (usage, set, layer, material): deeper is something else. */
const MATERIAL_DEPTH = 4;

/**
 * Which products the IFC gives no colour. web-ifc draws those white, exactly as an
 * explicit white style, so this looks where web-ifc finds styles: a styled item anywhere
 * in the product's shape (on an item, a mapped item or a boolean operand), or a styled
 * material associated with the product. A product with a style anywhere counts as styled
 * throughout: an unstyled part of a styled product stays as web-ifc draws it.
 *
 * Read from raw lines, so it needs none of web-ifc's schema classes; the indexes are made
 * on the first question, which only a white piece asks.
 */
export class UnstyledProducts {
  private styledItems?: Set<number>;
  private styledByMaterial?: Set<number>;
  private readonly answers = new Map<number, boolean>();

  constructor(
    private readonly api: IfcAPI,
    private readonly modelID: number,
  ) {}

  /** Whether a piece of `product` that web-ifc drew in `rgba` has no colour from the IFC. */
  unstyled(product: number, rgba: { x: number; y: number; z: number; w: number }): boolean {
    return rgba.x === 1 && rgba.y === 1 && rgba.z === 1 && rgba.w === 1 && !this.styled(product);
  }

  /** Whether the IFC styles `product` anywhere: its shape or its material. */
  styled(product: number): boolean {
    let answer = this.answers.get(product);
    if (answer === undefined) {
      answer = this.materialStyled().has(product) || this.shapeStyled(product);
      this.answers.set(product, answer);
    }
    return answer;
  }

  private shapeStyled(product: number): boolean {
    const items = this.itemsWithStyle();
    const seen = new Set<number>();
    const walk = (id: number): boolean => {
      if (!id || seen.has(id)) return false;
      seen.add(id);
      if (items.has(id)) return true;
      if (!SHAPE_TYPES.has(this.api.GetLineType(this.modelID, id))) return false;
      return refs(this.line(id)).some(walk);
    };
    return walk(refOf(this.line(product)[6])); // IfcProduct.Representation
  }

  /** Representation items an IfcStyledItem points at. */
  private itemsWithStyle(): Set<number> {
    this.styledItems ??= new Set(this.ids(IFCSTYLEDITEM).map((id) => refOf(this.line(id)[0])).filter((id) => id > 0));
    return this.styledItems;
  }

  /** Products (and types) associated with a material that has a styled representation. */
  private materialStyled(): Set<number> {
    if (this.styledByMaterial) return this.styledByMaterial;
    const styledMaterials = new Set(this.ids(IFCMATERIALDEFINITIONREPRESENTATION).map((id) => refOf(this.line(id)[3])));
    const styled = new Set<number>();
    if (styledMaterials.size > 0) {
      for (const id of this.ids(IFCRELASSOCIATESMATERIAL)) {
        const rel = this.line(id);
        if (this.reaches(refOf(rel[5]), styledMaterials, MATERIAL_DEPTH, new Set())) for (const object of refs(rel[4])) styled.add(object);
      }
    }
    this.styledByMaterial = styled;
    return styled;
  }

  /** Whether a material select leads to one of `targets` (through usages, sets, layers, lists). */
  private reaches(id: number, targets: Set<number>, depth: number, seen: Set<number>): boolean {
    if (!id || seen.has(id)) return false;
    seen.add(id);
    if (targets.has(id)) return true;
    return depth > 0 && refs(this.line(id)).some((next) => this.reaches(next, targets, depth - 1, seen));
  }

  private ids(type: number): number[] {
    const vector = this.api.GetLineIDsWithType(this.modelID, type, false);
    return Array.from({ length: vector.size() }, (_, i) => vector.get(i));
  }

  private line(id: number): unknown[] {
    return rawLine(this.api, this.modelID, id)?.args ?? [];
  }
}

/** Every reference among a line's arguments, lists included. */
function refs(values: unknown): number[] {
  if (!Array.isArray(values)) return [refOf(values)].filter((id) => id > 0);
  return values.flatMap((value) => refs(value));
}
