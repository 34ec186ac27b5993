/**
 * A small made-up IFC4 model (STEP text) that uses the geometry real models use: extruded
 * rectangles, polylines, arcs and I-shapes, openings cut from walls, half-space clipping,
 * faceted breps, mapped items, polygonal and triangulated face sets, styled colours and
 * glass, spaces and a grid. Loading it once while the viewer starts makes the engine hot
 * (web-ifc's wasm tiered up, the scripts optimised, the GPU's pipelines built) before the
 * first real model arrives. See warm-up.ts.
 */
export function warmUpModel(rooms = 12): Uint8Array {
  const lines: string[] = [];
  const add = (entity: string) => lines.push(`#${lines.length + 1}=${entity};`);
  const ref = (entity: string) => (add(entity), `#${lines.length}`);
  const list = (ids: string[]) => `(${ids.join(',')})`;
  let guids = 0;
  const guid = () => `'3warmup${String(guids++).padStart(15, '0')}'`;
  const n = (x: number) => (Number.isInteger(x) ? `${x}.` : String(x));
  const point = (...c: number[]) => ref(`IFCCARTESIANPOINT(${list(c.map(n))})`);
  const dirZ = ref('IFCDIRECTION((0.,0.,1.))');
  const dirX = ref('IFCDIRECTION((1.,0.,0.))');
  const world = ref(`IFCAXIS2PLACEMENT3D(${point(0, 0, 0)},$,$)`);
  const axes = (x: number, y: number, z: number, xAxis = dirX) => ref(`IFCAXIS2PLACEMENT3D(${point(x, y, z)},${dirZ},${xAxis})`);
  const context = ref(`IFCGEOMETRICREPRESENTATIONCONTEXT($,'Model',3,1.E-05,${world},$)`);
  const body = ref(`IFCGEOMETRICREPRESENTATIONSUBCONTEXT('Body','Model',*,*,*,*,${context},$,.MODEL_VIEW.,$)`);
  const units = ref(`IFCUNITASSIGNMENT((${ref('IFCSIUNIT(*,.LENGTHUNIT.,$,.METRE.)')},${ref('IFCSIUNIT(*,.PLANEANGLEUNIT.,$,.RADIAN.)')}))`);
  const project = ref(`IFCPROJECT(${guid()},$,'Warm-up',$,$,$,$,(${context}),${units})`);
  const style = (r: number, g: number, b: number, transparency = 0) =>
    ref(`IFCSURFACESTYLE($,.BOTH.,(${ref(`IFCSURFACESTYLERENDERING(${ref(`IFCCOLOURRGB($,${n(r)},${n(g)},${n(b)})`)},${n(transparency)},$,$,$,$,$,$,.NOTDEFINED.)`)}))`);
  const styles = { wall: style(0.9, 0.88, 0.82), slab: style(0.6, 0.6, 0.62), steel: style(0.4, 0.45, 0.5), glass: style(0.5, 0.7, 0.9, 0.6), space: style(0.4, 0.6, 0.9, 0.8) };
  const place2d = ref(`IFCAXIS2PLACEMENT2D(${ref('IFCCARTESIANPOINT((0.,0.))')},$)`);
  const extrude = (profile: string, depth: number, at = world) => ref(`IFCEXTRUDEDAREASOLID(${profile},${at},${dirZ},${n(depth)})`);
  const rectangle = (x: number, y: number) => ref(`IFCRECTANGLEPROFILEDEF(.AREA.,$,${place2d},${n(x)},${n(y)})`);
  const shape = (items: string[], styleId: string, type = 'SweptSolid') => {
    for (const item of items) add(`IFCSTYLEDITEM(${item},(${styleId}),$)`);
    return ref(`IFCPRODUCTDEFINITIONSHAPE($,$,(${ref(`IFCSHAPEREPRESENTATION(${body},'Body','${type}',${list(items)})`)}))`);
  };

  const sitePlace = ref(`IFCLOCALPLACEMENT($,${world})`);
  const site = ref(`IFCSITE(${guid()},$,'Site',$,$,${sitePlace},$,$,.ELEMENT.,$,$,$,$,$)`);
  const building = ref(`IFCBUILDING(${guid()},$,'Building',$,$,${ref(`IFCLOCALPLACEMENT(${sitePlace},${world})`)},$,$,.ELEMENT.,$,$,$)`);
  add(`IFCRELAGGREGATES(${guid()},$,$,$,${project},(${site}))`);
  add(`IFCRELAGGREGATES(${guid()},$,$,$,${site},(${building}))`);

  // One window shape, placed by every window through a mapped item.
  const windowMap = ref(`IFCREPRESENTATIONMAP(${world},${ref(`IFCSHAPEREPRESENTATION(${body},'Body','SweptSolid',(${extrude(rectangle(1, 0.06), 1.2)}))`)})`);
  const storeys: string[] = [];
  const side = Math.ceil(Math.sqrt(rooms / 2));
  for (let s = 0; s < 2; s++) {
    const storeyPlace = ref(`IFCLOCALPLACEMENT(${sitePlace},${axes(0, 0, s * 3)})`);
    const storey = ref(`IFCBUILDINGSTOREY(${guid()},$,'Level ${s + 1}',$,$,${storeyPlace},$,$,.ELEMENT.,${n(s * 3)})`);
    storeys.push(storey);
    const elements: string[] = [];
    const spaces: string[] = [];
    const product = (entity: string, x: number, y: number, z: number, definition: string, tail: string, into = elements) => {
      const placement = ref(`IFCLOCALPLACEMENT(${storeyPlace},${axes(x, y, z)})`);
      const id = ref(`${entity}(${guid()},$,$,$,$,${placement},${definition},$${tail})`);
      into.push(id);
      return { id, placement };
    };
    for (let room = 0; room < Math.ceil(rooms / 2); room++) {
      const x = (room % side) * 6;
      const y = Math.floor(room / side) * 5;
      // A wall with an opening (CSG), and a window in it through the shared map.
      const wall = product('IFCWALL', x, y, 0.2, shape([extrude(rectangle(6, 0.2), 2.6, axes(3, 0, 0))], styles.wall), ',.STANDARD.');
      const opening = ref(`IFCOPENINGELEMENT(${guid()},$,$,$,$,${ref(`IFCLOCALPLACEMENT(${wall.placement},${axes(3, 0, 0.9)})`)},${shape([extrude(rectangle(1, 0.4), 1.2)], styles.wall)},$,.OPENING.)`);
      add(`IFCRELVOIDSELEMENT(${guid()},$,$,$,${wall.id},${opening})`);
      const mapped = ref(`IFCMAPPEDITEM(${windowMap},${ref(`IFCCARTESIANTRANSFORMATIONOPERATOR3D($,$,${point(0, 0, 0)},1.,$)`)})`);
      product('IFCWINDOW', x + 3, y, 1.1, shape([mapped], styles.glass, 'MappedRepresentation'), ',1.2,1.,.WINDOW.,.SINGLE_PANEL.,$');
      // An L-shaped slab (polyline) and a slab with a rounded edge (indexed curve with an arc).
      const outline = ref(`IFCPOLYLINE(${list([[0, 0], [6, 0], [6, 3], [3, 3], [3, 5], [0, 5], [0, 0]].map(([a, b]) => ref(`IFCCARTESIANPOINT((${n(a)},${n(b)}))`)))})`);
      product('IFCSLAB', x, y, 0, shape([extrude(ref(`IFCARBITRARYCLOSEDPROFILEDEF(.AREA.,$,${outline})`), 0.2)], styles.slab), ',.FLOOR.');
      const rounded = ref(`IFCINDEXEDPOLYCURVE(${ref('IFCCARTESIANPOINTLIST2D(((0.,0.),(3.,0.),(4.,1.),(3.,2.),(0.,2.)))')},(IFCLINEINDEX((1,2)),IFCARCINDEX((2,3,4)),IFCLINEINDEX((4,5,1))),.F.)`);
      product('IFCSLAB', x + 3, y + 3, 2.6, shape([extrude(ref(`IFCARBITRARYCLOSEDPROFILEDEF(.AREA.,$,${rounded})`), 0.15)], styles.slab), ',.ROOF.');
      // A round column and an I-beam clipped by a half space.
      product('IFCCOLUMN', x + 5.5, y + 4.5, 0.2, shape([extrude(ref(`IFCCIRCLEPROFILEDEF(.AREA.,$,${place2d},0.15)`), 2.6)], styles.steel), ',.COLUMN.');
      const beam = extrude(ref(`IFCISHAPEPROFILEDEF(.AREA.,$,${place2d},0.2,0.3,0.01,0.015,0.01,$,$)`), 5.8, ref(`IFCAXIS2PLACEMENT3D(${point(0, 0, 0)},${dirX},${ref('IFCDIRECTION((0.,0.,-1.))')})`));
      const cut = ref(`IFCHALFSPACESOLID(${ref(`IFCPLANE(${ref(`IFCAXIS2PLACEMENT3D(${point(5, 0, 0)},${ref('IFCDIRECTION((1.,0.,1.))')},$)`)})`)},.F.)`);
      // Booleans are web-ifc's slowest geometry: a few are enough to make their code hot.
      const clipped = room % 4 === 0;
      product('IFCBEAM', x, y + 2.5, 2.5, shape([clipped ? ref(`IFCBOOLEANCLIPPINGRESULT(.DIFFERENCE.,${beam},${cut})`) : beam], styles.steel, clipped ? 'Clipping' : 'SweptSolid'), ',.BEAM.');
      // A table as a faceted brep, a ceiling as a polygonal face set, a proxy as triangles.
      const corners = [[0, 0, 0], [1, 0, 0], [1, 0.6, 0], [0, 0.6, 0], [0, 0, 0.7], [1, 0, 0.7], [1, 0.6, 0.7], [0, 0.6, 0.7]].map((c) => point(...c));
      const faces = [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7]].map((f) => ref(`IFCFACE((${ref(`IFCFACEOUTERBOUND(${ref(`IFCPOLYLOOP(${list(f.map((i) => corners[i]))})`)},.T.)`)}))`));
      product('IFCFURNISHINGELEMENT', x + 1, y + 1, 0.2, shape([ref(`IFCFACETEDBREP(${ref(`IFCCLOSEDSHELL(${list(faces)})`)})`)], styles.steel, 'Brep'), '');
      const ceiling = `IFCPOLYGONALFACESET(${ref('IFCCARTESIANPOINTLIST3D(((0.,0.,0.),(5.8,0.,0.),(5.8,4.8,0.),(0.,4.8,0.),(2.9,2.4,-0.3)))')},$,(${ref('IFCINDEXEDPOLYGONALFACE((1,2,5))')},${ref('IFCINDEXEDPOLYGONALFACE((2,3,5))')},${ref('IFCINDEXEDPOLYGONALFACE((3,4,5))')},${ref('IFCINDEXEDPOLYGONALFACE((4,1,5))')}),$)`;
      product('IFCCOVERING', x + 0.1, y + 0.1, 2.7, shape([ref(ceiling)], styles.slab, 'Tessellation'), ',.CEILING.');
      const pyramidPoints = ref('IFCCARTESIANPOINTLIST3D(((0.,0.,0.),(0.5,0.,0.),(0.5,0.5,0.),(0.,0.5,0.),(0.25,0.25,0.6)))');
      const pyramid = ref(`IFCTRIANGULATEDFACESET(${pyramidPoints},$,.T.,((1,2,5),(2,3,5),(3,4,5),(4,1,5),(1,3,2),(1,4,3)),$)`);
      product('IFCBUILDINGELEMENTPROXY', x + 4, y + 1, 0.2, shape([pyramid], styles.wall, 'Tessellation'), ',.NOTDEFINED.');
      product('IFCSPACE', x + 3, y + 2.5, 0.2, shape([extrude(rectangle(5.8, 4.8), 2.4)], styles.space), ',.ELEMENT.,.INTERNAL.,$', spaces);
    }
    add(`IFCRELCONTAINEDINSPATIALSTRUCTURE(${guid()},$,$,$,${list(elements)},${storey})`);
    add(`IFCRELAGGREGATES(${guid()},$,$,$,${storey},${list(spaces)})`);
  }
  add(`IFCRELAGGREGATES(${guid()},$,$,$,${building},${list(storeys)})`);
  // A grid of two by two axes, so the grid reader and the grid's lines and tags warm up too.
  const gridAxis = (tag: string, a: number[], b: number[]) =>
    ref(`IFCGRIDAXIS('${tag}',${ref(`IFCPOLYLINE((${ref(`IFCCARTESIANPOINT((${n(a[0])},${n(a[1])}))`)},${ref(`IFCCARTESIANPOINT((${n(b[0])},${n(b[1])}))`)}))`)},.T.)`);
  const grid = ref(`IFCGRID(${guid()},$,$,$,$,${ref(`IFCLOCALPLACEMENT(${sitePlace},${world})`)},$,(${gridAxis('A', [0, -1], [0, 10])},${gridAxis('B', [6, -1], [6, 10])}),(${gridAxis('1', [-1, 0], [12, 0])},${gridAxis('2', [-1, 5], [12, 5])}),$,$)`);
  add(`IFCRELCONTAINEDINSPATIALSTRUCTURE(${guid()},$,$,$,(${grid}),${storeys[0]})`);
  const text = `ISO-10303-21;\nHEADER;\nFILE_DESCRIPTION((''),'2;1');\nFILE_NAME('warm-up.ifc','',(''),(''),'','','');\nFILE_SCHEMA(('IFC4'));\nENDSEC;\nDATA;\n${lines.join('\n')}\nENDSEC;\nEND-ISO-10303-21;\n`;
  return new TextEncoder().encode(text);
}
