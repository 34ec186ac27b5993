import { assertEqual } from './support/assert';
import '../src/elements/bim-viewer-3d';
import '../src/elements/bim-viewer-2d';
import '../src/elements/bim-viewer-ui';

// Vue and Angular write a bound `false` as the attribute "false"; plain HTML writes a
// present attribute as "" or its name. Each boolean option reads them all as meant.

const OPTIONS: [tag: string, attribute: string, property: string, byDefault: boolean][] = [
  ['bim-viewer-3d', 'enable-touch', 'enableTouch', false],
  ['bim-viewer-3d', 'enable-clipping-plane-widget', 'enableClippingPlaneWidget', false],
  ['bim-viewer-2d', 'show-viewpoint', 'showViewpoint', true],
  ['bim-viewer-ui', 'enable-keyboard', 'enableKeyboard', false],
  ['bim-viewer-ui', 'enable-joystick', 'enableJoystick', true],
  ['bim-viewer-ui', 'joystick-hidden', 'joystickHidden', true],
  ['bim-viewer-ui', 'spaces-visible', 'spacesVisible', false],
  ['bim-viewer-ui', 'enable-viewer2d-integration', 'enableViewer2dIntegration', false],
  ['bim-viewer-ui', 'show-viewer2d-storey-select', 'showViewer2dStoreySelect', false],
  ['bim-viewer-ui', 'show-viewer2d-locked-navigation-toggle', 'showViewer2dLockedNavigationToggle', false],
  ['bim-viewer-ui', 'enable-context-menu', 'enableContextMenu', false],
];

describe('boolean attributes', () => {
  for (const [tag, attribute, property, byDefault] of OPTIONS) {
    it(`${tag} ${attribute}: "false", "0", "off" are false; "", "true", its name are true; none is ${byDefault}`, () => {
      const el = document.createElement(tag) as HTMLElement & Record<string, unknown>;
      const read = (value: string | null) => {
        if (value === null) el.removeAttribute(attribute);
        else el.setAttribute(attribute, value);
        return el[property];
      };
      for (const value of ['false', 'FALSE', '0', 'off', 'no']) assertEqual(read(value), false, `"${value}"`);
      for (const value of ['', 'true', attribute]) assertEqual(read(value), true, `"${value}"`);
      assertEqual(read(null), byDefault, 'no attribute');
    });
  }
});
