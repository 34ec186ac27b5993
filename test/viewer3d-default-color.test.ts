import { assert, assertEqual } from './support/assert';
import { createViewer, removeViewer, pixelAt, MODELS } from './support/viewer';
import { truthOf, productsOf, objectIdOf } from './support/samples';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';

type Rgb = [number, number, number];

/**
 * The house with its slabs' styled items taken out, so the IFC gives the slabs no colour,
 * and its roof style made exactly white (web-ifc draws unstyled objects white too). With
 * `whiteConcrete`, the slabs' material (Concrete) gets a white style of its own.
 */
async function houseWithUnstyledSlabs({ whiteConcrete = false } = {}): Promise<string> {
  let text = await (await fetch(MODELS.house)).text();
  const id = (pattern: string) => new RegExp(`^(#\\d+)=${pattern}`, 'm').exec(text)![1];
  const before = text.length;
  text = text.replace(new RegExp(`^#\\d+=IFCSTYLEDITEM\\(#\\d+,\\(${id("IFCSURFACESTYLE\\('Concrete'")}\\),\\$\\);\\r?\\n`, 'gm'), '');
  assert(text.length < before, 'the slabs had styled items');
  // The roof's colour: IfcSurfaceStyle('Roof tiles') -> rendering -> IfcColourRgb.
  const rendering = new RegExp(`^${id("IFCSURFACESTYLE\\('Roof tiles'")}=IFCSURFACESTYLE\\('Roof tiles',\\.BOTH\\.,\\((#\\d+)\\)\\);`, 'm').exec(text)![1];
  const colour = new RegExp(`^${rendering}=IFCSURFACESTYLERENDERING\\((#\\d+),`, 'm').exec(text)![1];
  text = text.replace(new RegExp(`^${colour}=IFCCOLOURRGB\\(\\$,[^)]*\\);`, 'm'), `${colour}=IFCCOLOURRGB($,1.,1.,1.);`);
  if (whiteConcrete) {
    let next = Math.max(...[...text.matchAll(/^#(\d+)=/gm)].map((m) => Number(m[1]))) + 1;
    const line = (entity: string) => `#${next++}=${entity};\n`;
    const [white, rendering, style, item, representation] = [0, 1, 2, 3, 4].map((i) => `#${next + i}`);
    const lines = line('IFCCOLOURRGB($,1.,1.,1.)') + line(`IFCSURFACESTYLERENDERING(${white},0.,$,$,$,$,$,$,.NOTDEFINED.)`) +
      line(`IFCSURFACESTYLE('Concrete material',.BOTH.,(${rendering}))`) + line(`IFCSTYLEDITEM($,(${style}),$)`) +
      line(`IFCSTYLEDREPRESENTATION(${id("IFCGEOMETRICREPRESENTATIONCONTEXT\\(\\$,'Model'")},'Style','Material',(${item}))`) +
      line(`IFCMATERIALDEFINITIONREPRESENTATION($,$,(${representation}),${id("IFCMATERIAL\\('Concrete'")})`);
    text = text.replace(/^ENDSEC;\r?\n(?=END-ISO)/m, `${lines}ENDSEC;\n`);
  }
  return URL.createObjectURL(new Blob([text]));
}

/** The colour in the middle of the view with only `id` shown, seen from above. */
async function centreColour(el: BimViewer3d, id: string): Promise<Rgb> {
  await el.hideAll();
  await el.show(id);
  await el.lookAt(id, 'top');
  const rect = el.getBoundingClientRect();
  const [r, g, b] = await pixelAt(await el.screenshot(), rect.width / 2, rect.height / 2);
  return [r, g, b];
}

const grey = ([r, g, b]: Rgb) => Math.max(r, g, b) - Math.min(r, g, b) <= 6;

describe('<bim-viewer-3d> defaultColor: the colour of objects whose IFC gives none', () => {
  let el: BimViewer3d;
  let slab: string;
  let roof: string;

  before(async () => {
    const truth = await truthOf(MODELS.house);
    slab = objectIdOf(productsOf(truth, 'IfcSlab').find((p) => p.name !== 'Roof')?.id ?? productsOf(truth, 'IfcSlab')[0].id);
    roof = objectIdOf(productsOf(truth, 'IfcRoof', 'IfcSlab').find((p) => /roof/i.test(p.name))!.id);
    assert(slab !== roof, 'a floor slab and the roof');
    el = await createViewer(320, 240);
    await el.loadModel(await houseWithUnstyledSlabs(), { modelId: 'unstyled' });
  });
  after(() => removeViewer(el));

  it('draws unstyled objects in the default #101010', async () => {
    const [r, g, b] = await centreColour(el, slab);
    assert(grey([r, g, b]) && r > 0 && r < 32, `a dark grey slab, got ${[r, g, b]}`);
  });

  it('takes a new colour at once, as CSS text or a number, without reloading', async () => {
    el.defaultColor = 'red';
    await el.updateComplete;
    const red = await centreColour(el, slab);
    assert(red[0] > 100 && red[1] < 20 && red[2] < 20, `red, got ${red}`);
    el.defaultColor = 0x00ff00;
    await el.updateComplete;
    const green = await centreColour(el, slab);
    assert(green[1] > 100 && green[0] < 20 && green[2] < 20, `green, got ${green}`);
  });

  it('leaves an explicit white style white, and setColor still wins', async () => {
    el.defaultColor = 'red';
    await el.updateComplete;
    const white = await centreColour(el, roof);
    assert(grey(white) && white[0] > 150, `a white roof, got ${white}`);
    await el.color('#0000ff', slab);
    const blue = await centreColour(el, slab);
    assert(blue[2] > 100 && blue[0] < 20, `the slab's own colour, got ${blue}`);
    await el.resetColors();
    assertEqual((await centreColour(el, slab))[1] < 20, true, 'back to the default colour');
  });

  it('counts a colour from the material as the IFC colour', async () => {
    const other = await createViewer(320, 240, { 'default-color': '#ff0000' });
    try {
      await other.loadModel(await houseWithUnstyledSlabs({ whiteConcrete: true }), { modelId: 'white-concrete' });
      const white = await centreColour(other, slab);
      assert(grey(white) && white[0] > 150, `a white slab, got ${white}`);
    } finally {
      await removeViewer(other);
    }
  });

  it('does not touch objects the IFC colours', async () => {
    const other = await createViewer(320, 240, { 'default-color': '#ff0000' });
    try {
      await other.loadUrl(MODELS.house);
      const concrete = await centreColour(other, slab);
      assert(grey(concrete) && concrete[0] > 60, `grey concrete, got ${concrete}`);
    } finally {
      await removeViewer(other);
    }
  });
});
