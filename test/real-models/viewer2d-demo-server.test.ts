// The 2D + 3D demo page (demo/plan.html) on a real file (BIM_MODELS) whose lowest storey
// has no spaces (Duplex's T/FDN): the page picks the first storey with spaces. The same
// page on the generated house: test/viewer2d-demo-server.test.ts.
import { assertDeepEqual, assertEqual } from '../support/assert';
import { assertArrowDrives3dCamera, onPlanPage, until3dLoaded } from '../support/demo-page';

describe('demo: the 2D + 3D page', function () {
  it('/demo/plan.html loads Duplex in both viewers, picks Level 1, and the arrow drives the 3D camera', async () => {
    await onPlanPage('duplex-a-20110907', async (page) => {
      assertDeepEqual(Array.from(page.picker.options).map((o) => o.textContent), ['T/FDN (-1.25 m)', 'Level 1 (0.00 m)', 'Level 2 (3.10 m)', 'Roof (6.00 m)']);
      await until3dLoaded(page);
      assertEqual(page.viewer2d.getStoreys({ visible: true }).map((s) => s.name).join(), 'Level 1');
      await assertArrowDrives3dCamera(page);
    });
  });
});
