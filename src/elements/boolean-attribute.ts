import type { ComplexAttributeConverter } from 'lit';

/**
 * A boolean option's attribute as pages and frameworks write it: `"false"`, `"0"`, `"no"`
 * and `"off"` mean false (Vue and Angular write a bound `false` as `"false"`, which lit's
 * plain Boolean reads as true), any other value means true, and no attribute means the
 * option's default. Reflected: true is an empty attribute, false none (or `"false"` where
 * the default is true). Declare `type: Boolean` beside it: the jQuery shim coerces options by it.
 */
export function booleanAttribute(byDefault: boolean): ComplexAttributeConverter<boolean> {
  return {
    fromAttribute: (value) => (value === null ? byDefault : !/^(false|0|no|off)$/i.test(value.trim())),
    toAttribute: (value) => (value ? '' : byDefault ? 'false' : null),
  };
}
