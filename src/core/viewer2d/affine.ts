/**
 * 2D affine maps [a c e; b d f] (as SVG's matrix(a b c d e f)): the model
 * transformations of setTransformation, and the model -> SVG user space map.
 */
export class Affine {
  constructor(
    readonly a = 1,
    readonly b = 0,
    readonly c = 0,
    readonly d = 1,
    readonly e = 0,
    readonly f = 0,
  ) {}

  static readonly identity = new Affine();

  static translate(x: number, y: number): Affine {
    return new Affine(1, 0, 0, 1, x, y);
  }

  /** Counter-clockwise by `angle` radians around (cx, cy). */
  static rotate(angle: number, cx = 0, cy = 0): Affine {
    const cos = Math.cos(angle), sin = Math.sin(angle);
    return new Affine(cos, sin, -sin, cos, cx - cos * cx + sin * cy, cy - sin * cx - cos * cy);
  }

  /** First this, then other: x -> other(this(x)). */
  then(other: Affine): Affine {
    return other.times(this);
  }

  /** this(other(x)). */
  times(o: Affine): Affine {
    return new Affine(
      this.a * o.a + this.c * o.b,
      this.b * o.a + this.d * o.b,
      this.a * o.c + this.c * o.d,
      this.b * o.c + this.d * o.d,
      this.a * o.e + this.c * o.f + this.e,
      this.b * o.e + this.d * o.f + this.f,
    );
  }

  apply(x: number, y: number): [number, number] {
    return [this.a * x + this.c * y + this.e, this.b * x + this.d * y + this.f];
  }

  invert(): Affine {
    const det = this.a * this.d - this.b * this.c;
    if (!det) return Affine.identity;
    const a = this.d / det, b = -this.b / det, c = -this.c / det, d = this.a / det;
    return new Affine(a, b, c, d, -(a * this.e + c * this.f), -(b * this.e + d * this.f));
  }

  /** The rotation angle (radians, counter-clockwise). */
  get angle(): number {
    return Math.atan2(this.b, this.a);
  }

  get isIdentity(): boolean {
    return this.a === 1 && this.b === 0 && this.c === 0 && this.d === 1 && this.e === 0 && this.f === 0;
  }

  toSvg(): string {
    const n = (v: number) => +v.toFixed(9);
    return `matrix(${n(this.a)} ${n(this.b)} ${n(this.c)} ${n(this.d)} ${n(this.e)} ${n(this.f)})`;
  }
}
