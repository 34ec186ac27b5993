/**
 * The standard easing functions by their customary names (LinearNone, QuadraticIn,
 * QuadraticOut, QuadraticInOut, ... BounceInOut), each mapping 0..1 to 0..1.
 */
export type Easing = (t: number) => number;

const inOut = (easeIn: Easing): { In: Easing; Out: Easing; InOut: Easing } => ({
  In: easeIn,
  Out: (t) => 1 - easeIn(1 - t),
  InOut: (t) => (t < 0.5 ? easeIn(t * 2) / 2 : 1 - easeIn((1 - t) * 2) / 2),
});

const bounceOut: Easing = (t) => {
  if (t < 1 / 2.75) return 7.5625 * t * t;
  if (t < 2 / 2.75) return 7.5625 * (t -= 1.5 / 2.75) * t + 0.75;
  if (t < 2.5 / 2.75) return 7.5625 * (t -= 2.25 / 2.75) * t + 0.9375;
  return 7.5625 * (t -= 2.625 / 2.75) * t + 0.984375;
};

const families: Record<string, Easing> = {
  Quadratic: (t) => t * t,
  Cubic: (t) => t * t * t,
  Quartic: (t) => t ** 4,
  Quintic: (t) => t ** 5,
  Sinusoidal: (t) => 1 - Math.cos((t * Math.PI) / 2),
  Exponential: (t) => (t === 0 ? 0 : 1024 ** (t - 1)),
  Circular: (t) => 1 - Math.sqrt(1 - t * t),
  Elastic: (t) => (t === 0 || t === 1 ? t : -(2 ** (10 * (t - 1))) * Math.sin((t - 1.1) * 5 * Math.PI)),
  Back: (t) => t * t * ((1.70158 + 1) * t - 1.70158),
  Bounce: (t) => 1 - bounceOut(1 - t),
};

export const EASINGS: Record<string, Easing> = { LinearNone: (t) => t };
for (const [family, easeIn] of Object.entries(families)) {
  const { In, Out, InOut } = inOut(easeIn);
  EASINGS[`${family}In`] = In;
  EASINGS[`${family}Out`] = Out;
  EASINGS[`${family}InOut`] = InOut;
}
