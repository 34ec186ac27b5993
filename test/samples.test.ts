// The sample-building generator (samples/): every named sample is valid IFC of its schema
// as web-ifc reads it, holds exactly what its truth says (products, names, GlobalIds,
// each product's meshed box), and the same parameters give the same bytes.
import * as WebIfc from 'web-ifc';
import wasmUrl from 'web-ifc/web-ifc.wasm?url';
import { buildingText, layoutFor } from '../samples/building.js';
import { sampleOptions } from '../samples/variants.js';
import { GlobalIds, real, text } from '../samples/step-file.js';
import { verifySample } from '../samples/verify.js';
import { assert, assertAlmostEqual, assertDeepEqual, assertEqual } from './support/assert';
import { SAMPLES, truthOf, type Truth } from './support/samples';

let api: WebIfc.IfcAPI;

async function bytesOf(url: string): Promise<Uint8Array> {
  const res = await fetch(url);
  assertEqual(res.status, 200, `status of ${url}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** Products by name (unique, and the same whatever the schema or units; the building is named after the file). */
const byName = (truth: Truth) => new Map(truth.products.filter((p) => p.type !== 'IfcBuilding').map((p) => [p.name, p]));

describe('sample buildings (samples/)', function () {
  before(async () => {
    api = new WebIfc.IfcAPI();
    await api.Init((path: string) => (path.endsWith('.wasm') ? wasmUrl : path), true);
    api.SetLogLevel(WebIfc.LogLevel.LOG_LEVEL_OFF);
  });

  for (const [key, url] of Object.entries(SAMPLES)) {
    it(`${key}: web-ifc reads every line with its schema's attributes, and every product where the truth says`, async () => {
      const truth = await truthOf(url);
      const problems = verifySample(WebIfc, api, await bytesOf(url), truth);
      assertDeepEqual(problems, [], `${url}`);
    });
  }

  it('the checks find what is wrong: a line short of an attribute, a name, a box a millimetre off', async () => {
    const { text: ifc, truth } = buildingText({ storeys: 1, roomsX: 1, roomsY: 1 });
    const broken = ifc.replace(/IFCROOF\((.*),\.GABLE_ROOF\.\)/, 'IFCROOF($1)');
    const wall = truth.products.find((p) => p.type === 'IfcWall')!;
    const door = truth.products.find((p) => p.type === 'IfcDoor')!;
    const lied = { ...truth, products: truth.products.map((p) => (p === wall ? { ...p, box: { min: p.box!.min, max: [p.box!.max[0], p.box!.max[1], p.box!.max[2] + 0.001] } } : p === door ? { ...p, name: 'Another' } : p)) };
    const problems = verifySample(WebIfc, api, new TextEncoder().encode(broken), lied as Truth);
    assert(problems.some((p) => /IFCROOF has 8 attributes, IFC4 gives it 9/.test(p)), problems.join('\n'));
    assert(problems.some((p) => p.includes(`#${wall.id}`) && /box/.test(p)), 'the wall box');
    assert(problems.some((p) => p.includes(`#${door.id}`) && /name/.test(p)), 'the door name');
  });

  it('the same parameters give the same bytes, in the browser as on the server; another seed other GlobalIds', async () => {
    const served = new TextDecoder().decode(await bytesOf(SAMPLES.house));
    const here = buildingText(sampleOptions('house')!);
    assertEqual(here.text.length, served.length, 'length');
    assert(here.text === served, 'the browser made the file the server serves');
    assertEqual(buildingText(sampleOptions('house')!).text, here.text, 'twice the same');
    const other = buildingText({ ...sampleOptions('house')!, seed: 'another' });
    assertEqual(other.text.length, here.text.length, 'same building');
    assert(other.truth.products.every((p, i) => p.guid !== here.truth.products[i].guid), 'other GlobalIds');
  });

  it('the schemas, units and the georeferenced house are one building: the same boxes by name, moved by the site', async () => {
    const house = await truthOf(SAMPLES.house);
    const houses = byName(house);
    for (const url of [SAMPLES.houseIfc2x3, SAMPLES.houseIfc4x3, SAMPLES.houseGeoreferenced]) {
      const truth = await truthOf(url);
      const offset = truth.site.origin!;
      assertEqual(truth.products.length, house.products.length, `${url}: products`);
      assertEqual(byName(truth).size, truth.products.length - 1, `${url}: names are unique`);
      for (const [name, p] of byName(truth)) {
        const q = houses.get(name);
        assert(q, `${url}: ${name} is in the house too`);
        if (!p.box || !q!.box) {
          assertEqual(p.box, q!.box, `${url}: ${name} drawn in both or neither`);
          continue;
        }
        for (let k = 0; k < 3; k++) assertAlmostEqual(p.box.min[k] - offset[k], q!.box.min[k], 1e-6, `${url}: ${name} min ${k}`);
      }
    }
    const mm = new TextDecoder().decode(await bytesOf(SAMPLES.houseIfc2x3));
    assert(/IFCSIUNIT\(\*,\.LENGTHUNIT\.,\.MILLI\.,\.METRE\.\)/.test(mm), 'the IFC2X3 house is in millimetres');
    assert(/IFCCONVERSIONBASEDUNIT\(#\d+,\.PLANEANGLEUNIT\.,'DEGREE'/.test(mm), 'with angles in degrees');
    const georeferenced = await truthOf(SAMPLES.houseGeoreferenced);
    assertDeepEqual(georeferenced.site.origin, [2683000, 1247000, 400], 'the site is millions of metres out');
    assert(/IFCMAPCONVERSION\(/.test(new TextDecoder().decode(await bytesOf(SAMPLES.houseGeoreferenced))), 'an IfcMapConversion');
  });

  it('has what real files have: openings voiding walls, filled by doors and windows; spaces, types, property sets', async () => {
    const truth = await truthOf(SAMPLES.house);
    const c = truth.counts;
    assertEqual(c.IfcBuildingStorey, 3);
    assertEqual(c.IfcOpeningElement, c.IfcDoor + c.IfcWindow + 2, 'an opening per door and window, and two stair openings');
    assertEqual(c.IfcSpace, 3 * 6, 'a space per room');
    assertDeepEqual(truth.spaces.map((s) => s.shape).filter((s) => s !== 'extrusion').sort(), ['brep', 'extrusion with hole', 'extrusion with hole'], 'one Brep space, two around stair openings');
    const hall = truth.spaces.find((s) => s.shape === 'extrusion with hole')!;
    assertAlmostEqual(hall.area, 5.8 * 4.8 - 1.2 * 2.9, 1e-9, 'the hall runs around the stair opening');
    assert(truth.spaces.some((s) => s.longName === 'Küche') && truth.spaces.some((s) => s.longName === '会议室'), 'non-ASCII long names');
    const wall = truth.products.find((p) => p.type === 'IfcWall')!;
    assert(wall.typeObject !== null && wall.psets.includes('Qto_WallBaseQuantities'), 'walls have a type and quantities');
    assert(truth.types.every((t) => t.occurrences.length > 0), 'every type object is used');
    assertDeepEqual(truth.grid!.axes.map((a) => a.tag), ['1', '2', '3', '4', 'A', 'B', 'C'], 'grid tags');
    assert(truth.products.some((p) => p.type === 'IfcBuildingElementProxy' && p.box === null), 'a product without geometry');
  });

  it('STEP text: quotes doubled, non-ASCII as \\X2\\, reals with a point and no exponent, GlobalIds of 22 characters', () => {
    assertEqual(text("Manager's office"), "'Manager''s office'");
    assertEqual(text('Küche 会议室'), "'K\\X2\\00FC\\X0\\che \\X2\\4F1A8BAE5BA4\\X0\\'");
    assertEqual(real(3), '3.');
    assertEqual(real(0.1 + 0.2), '0.3');
    assertEqual(real(2683000.25), '2683000.25');
    assertEqual(real(1e-12), '0.');
    const ids = new GlobalIds('seed');
    const guids = Array.from({ length: 1000 }, () => ids.next());
    assert(guids.every((g) => /^[0-3][0-9A-Za-z_$]{21}$/.test(g)), 'IFC base-64, first character 0-3');
    assertEqual(new Set(guids).size, 1000, 'unique');
  });

  it('sizes from a cabin to an office of about as many products as asked; bad parameters say what is wrong', async () => {
    const office = await truthOf(SAMPLES.office2k);
    assert(office.products.length > 1700 && office.products.length < 2300, `office-2k: ${office.products.length} products`);
    assertEqual(office.counts.IfcOpeningElement, undefined, 'benchmark offices have no openings');
    const big = layoutFor(200_000);
    assert(big.storeys * big.roomsX * big.roomsY * 5 > 180_000, `200k products: ${JSON.stringify(big)}`);
    assertEqual((await fetch('/samples/no-such-building.ifc')).status, 404);
    const fails = (options: object, message: RegExp) => {
      try {
        buildingText(options);
      } catch (e) {
        assert(message.test((e as Error).message), (e as Error).message);
        return;
      }
      throw new Error(`no error for ${JSON.stringify(options)}`);
    };
    fails({ storeys: 0 }, /storeys must be a whole number/);
    fails({ units: 'ft' }, /units must be m or mm/);
    fails({ schema: 'IFC5' }, /Unknown schema IFC5/);
    fails({ schema: 'IFC2X3', georeferenced: true }, /georeferenced needs IFC4/);
  });
});
