import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openModel } from '../../../src/core/ifc/web-ifc-engine.js';
import { readGrids } from '../../../src/core/ifc/grids.js';
import { readUnits } from '../../../src/core/ifc/units.js';
import { startWebIfc } from '../../jobs/read-ifc.js';

/**
 * Grids and units read from web-ifc's raw lines (core/ifc/raw-lines.ts: arguments by
 * position, no schema tables), on a file with each kind of axis curve the reader knows:
 * a polyline, a line trimmed at two points, a line trimmed at two parameters, and an
 * indexed polycurve, placed 1, 2, 3 m away, in millimetres, with angles in degrees through
 * a conversion-based unit. The expected figures are worked out by hand. The samples' and the
 * real models' grids are checked in the browser (test/viewer3d-grids.test.ts,
 * test/real-models/grids.test.ts), the same as web-ifc's GetLine read them.
 */
const GRID_FILE = `ISO-10303-21;
HEADER;
FILE_DESCRIPTION(('ViewDefinition [ReferenceView]'),'2;1');
FILE_NAME('grids.ifc','2026-11-28T00:00:00',(''),(''),'test','test','None');
FILE_SCHEMA(('IFC4'));
ENDSEC;
DATA;
#1=IFCPROJECT('0aaaaaaaaaaaaaaaaaaaaa',$,'p',$,$,$,$,(#11),#14);
#2=IFCCARTESIANPOINT((0.,0.,0.));
#3=IFCAXIS2PLACEMENT3D(#2,$,$);
#11=IFCGEOMETRICREPRESENTATIONCONTEXT($,'Model',3,1.E-05,#3,$);
#14=IFCUNITASSIGNMENT((#15,#16));
#15=IFCSIUNIT(*,.LENGTHUNIT.,.MILLI.,.METRE.);
#16=IFCCONVERSIONBASEDUNIT(#17,.PLANEANGLEUNIT.,'DEGREE',#19);
#17=IFCDIMENSIONALEXPONENTS(0,0,0,0,0,0,0);
#18=IFCSIUNIT(*,.PLANEANGLEUNIT.,$,.RADIAN.);
#19=IFCMEASUREWITHUNIT(IFCPLANEANGLEMEASURE(0.0174532925199433),#18);
#20=IFCCARTESIANPOINT((1000.,2000.,3000.));
#21=IFCAXIS2PLACEMENT3D(#20,$,$);
#22=IFCLOCALPLACEMENT($,#21);
#30=IFCGRID('1bbbbbbbbbbbbbbbbbbbbb',$,'Grid \\X2\\00DC\\X0\\',$,$,#22,$,(#31,#32),(#33,#34),$,.RECTANGULAR.);
#31=IFCGRIDAXIS('1',#41,.T.);
#32=IFCGRIDAXIS('2',#42,.T.);
#33=IFCGRIDAXIS('A',#43,.T.);
#34=IFCGRIDAXIS('B',#44,.T.);
#41=IFCPOLYLINE((#51,#52));
#51=IFCCARTESIANPOINT((0.,-500.));
#52=IFCCARTESIANPOINT((0.,5500.));
#42=IFCTRIMMEDCURVE(#60,(#53),(#54),.T.,.CARTESIAN.);
#53=IFCCARTESIANPOINT((6000.,-500.));
#54=IFCCARTESIANPOINT((6000.,5500.));
#60=IFCLINE(#53,#61);
#61=IFCVECTOR(#62,1000.);
#62=IFCDIRECTION((0.,1.));
#43=IFCTRIMMEDCURVE(#63,(IFCPARAMETERVALUE(0.)),(IFCPARAMETERVALUE(7.)),.T.,.PARAMETER.);
#63=IFCLINE(#64,#65);
#64=IFCCARTESIANPOINT((-500.,0.));
#65=IFCVECTOR(#66,1000.);
#66=IFCDIRECTION((1.,0.));
#44=IFCINDEXEDPOLYCURVE(#67,$,.F.);
#67=IFCCARTESIANPOINTLIST2D(((-500.,5000.),(6500.,5000.)),$);
ENDSEC;
END-ISO-10303-21;
`;

describe('grids and units from raw lines', () => {
  it('places every kind of axis curve, in metres, with the tags and the grid\'s name and type', async () => {
    const ifc = await startWebIfc();
    const model = openModel(ifc, new TextEncoder().encode(GRID_FILE));
    try {
      assert.deepEqual(readUnits(ifc, model), { length: 0.001, angle: 0.0174532925199433 });
      const [grid, ...others] = readGrids(ifc, model, '1000');
      assert.equal(others.length, 0);
      assert.equal(grid.objectId, '1030');
      assert.equal(grid.name, 'Grid \u00dc');
      assert.equal(grid.type, 'RECTANGULAR');
      const axes = grid.axes.map((a) => [a.objectId, a.tag, a.points.map((c) => Math.round(c * 1e6) / 1e6)]);
      assert.deepEqual(axes, [
        ['1031', '1', [1, 1.5, 3, 1, 7.5, 3]], // polyline (0, -500) -> (0, 5500) mm
        ['1032', '2', [7, 1.5, 3, 7, 7.5, 3]], // line trimmed at two points
        ['1033', 'A', [0.5, 2, 3, 7.5, 2, 3]], // line from (-500, 0) along x, 1000 mm a unit, from 0 to 7
        ['1034', 'B', [0.5, 7, 3, 7.5, 7, 3]], // indexed polycurve
      ]);
    } finally {
      ifc.CloseModel(model);
    }
  });
});
