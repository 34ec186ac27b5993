// @ts-check
/**
 * Checks a sample file against its truth with web-ifc (any build: node or browser):
 * every line has the attribute count its schema gives the entity, the products, types
 * and names are the truth's, and each product's meshed geometry fills the truth's box.
 * Returns a list of problems (empty when the file is what the truth says).
 *
 *   const problems = verifySample(webIfc, api, bytes, truth);
 */

/**
 * @param {Record<string, any>} webIfc the web-ifc module (its schema classes and constants)
 * @param {any} api an initialised IfcAPI
 * @param {Uint8Array} bytes
 * @param {any} truth what buildingText/writeBuilding returned
 * @param {{ tolerance?: number }} [options] box tolerance in metres
 * @returns {string[]}
 */
export function verifySample(webIfc, api, bytes, truth, { tolerance = 1e-4 } = {}) {
  /** @type {string[]} */
  const problems = [];
  const model = api.OpenModel(bytes, { COORDINATE_TO_ORIGIN: false });
  try {
    if (api.GetModelSchema(model) !== truth.schema) problems.push(`schema ${api.GetModelSchema(model)}, truth ${truth.schema}`);
    problems.push(...checkLines(webIfc, api, model, truth));
    problems.push(...checkProducts(api, model, truth));
    problems.push(...checkBoxes(webIfc, api, model, truth, tolerance));
  } finally {
    api.CloseModel(model);
  }
  return problems;
}

/** Every line: the entity exists in the schema and has as many attributes as its class takes. */
function checkLines(/** @type {Record<string, any>} */ webIfc, /** @type {any} */ api, /** @type {number} */ model, /** @type {any} */ truth) {
  const schema = webIfc[truth.schema];
  /** @type {Map<string, number>} upper-case entity name -> attribute count */
  const counts = new Map();
  for (const [name, cls] of Object.entries(schema)) {
    const params = /constructor\(([^)]*)\)/.exec(String(cls));
    if (params) counts.set(name.toUpperCase(), params[1].trim() ? params[1].split(',').length : 0);
  }
  const problems = [];
  const ids = api.GetAllLines(model);
  if (ids.size() !== truth.lines) problems.push(`${ids.size()} lines, truth ${truth.lines}`);
  for (let i = 0; i < ids.size(); i++) {
    const id = ids.get(i);
    const raw = api.GetRawLineData(model, id);
    const name = api.GetNameFromTypeCode(raw.type).toUpperCase();
    const expected = counts.get(name);
    if (expected === undefined) problems.push(`#${id}: ${name} is not an entity of ${truth.schema}`);
    else if (raw.arguments.length !== expected) problems.push(`#${id}: ${name} has ${raw.arguments.length} attributes, ${truth.schema} gives it ${expected}`);
  }
  return problems;
}

/** The products the truth lists, with their types, GlobalIds and names (decoded). */
function checkProducts(/** @type {any} */ api, /** @type {number} */ model, /** @type {any} */ truth) {
  const problems = [];
  for (const p of truth.products) {
    const line = api.GetLine(model, p.id, false);
    const type = api.GetNameFromTypeCode(api.GetLineType(model, p.id));
    if (type !== p.type) problems.push(`#${p.id}: ${type}, truth ${p.type}`);
    if (line.GlobalId?.value !== p.guid) problems.push(`#${p.id}: GlobalId ${line.GlobalId?.value}, truth ${p.guid}`);
    if (decodeStep(String(line.Name?.value ?? '')) !== p.name) problems.push(`#${p.id}: name ${line.Name?.value}, truth ${p.name}`);
  }
  for (const space of truth.spaces) {
    const line = api.GetLine(model, space.id, false);
    if (decodeStep(String(line.LongName?.value ?? '')) !== space.longName) problems.push(`space #${space.id}: long name ${line.LongName?.value}, truth ${space.longName}`);
  }
  const guids = new Set(truth.products.map((/** @type {any} */ p) => p.guid));
  if (guids.size !== truth.products.length) problems.push('GlobalIds repeat');
  return problems;
}

/** Each product's meshes (web-ifc's frame: y up, metres) against its box; spaces included. */
function checkBoxes(/** @type {Record<string, any>} */ webIfc, /** @type {any} */ api, /** @type {number} */ model, /** @type {any} */ truth, /** @type {number} */ tolerance) {
  /** @type {Map<number, { min: number[], max: number[] }>} */
  const boxes = new Map();
  const onMesh = (/** @type {any} */ mesh) => {
    const placed = mesh.geometries;
    for (let i = 0; i < placed.size(); i++) {
      const g = placed.get(i);
      const geometry = api.GetGeometry(model, g.geometryExpressID);
      const vertices = api.GetVertexArray(geometry.GetVertexData(), geometry.GetVertexDataSize());
      const m = g.flatTransformation;
      let box = boxes.get(mesh.expressID);
      for (let k = 0; k < vertices.length; k += 6) {
        const x = vertices[k], y = vertices[k + 1], z = vertices[k + 2];
        const wx = m[0] * x + m[4] * y + m[8] * z + m[12];
        const wy = m[1] * x + m[5] * y + m[9] * z + m[13];
        const wz = m[2] * x + m[6] * y + m[10] * z + m[14];
        const p = [wx, -wz, wy]; // back to IFC's z up
        if (!box) boxes.set(mesh.expressID, (box = { min: [...p], max: [...p] }));
        for (let c = 0; c < 3; c++) {
          box.min[c] = Math.min(box.min[c], p[c]);
          box.max[c] = Math.max(box.max[c], p[c]);
        }
      }
      geometry.delete();
    }
  };
  api.StreamAllMeshes(model, onMesh);
  api.StreamAllMeshesWithTypes(model, [webIfc.IFCSPACE], onMesh);
  const problems = [];
  for (const p of truth.products) {
    const box = boxes.get(p.id);
    if (!p.box) {
      if (box) problems.push(`#${p.id} ${p.type} ${p.name}: meshed, truth says nothing is drawn`);
      continue;
    }
    if (!box) {
      problems.push(`#${p.id} ${p.type} ${p.name}: no mesh`);
      continue;
    }
    for (let c = 0; c < 3; c++) {
      if (Math.abs(box.min[c] - p.box.min[c]) > tolerance || Math.abs(box.max[c] - p.box.max[c]) > tolerance) {
        problems.push(`#${p.id} ${p.type} ${p.name}: box ${fmt(box)}, truth ${fmt(p.box)}`);
        break;
      }
    }
  }
  return problems;
}

const fmt = (/** @type {{ min: number[], max: number[] }} */ b) => `[${b.min.map((v) => v.toFixed(4))}]-[${b.max.map((v) => v.toFixed(4))}]`;

/** STEP's \X2\ strings decoded (the form web-ifc gives). */
function decodeStep(/** @type {string} */ s) {
  return s
    .replace(/\\X2\\((?:[0-9A-F]{4})+)\\X0\\/g, (_, hex) => String.fromCharCode(...hex.match(/.{4}/g).map((/** @type {string} */ h) => parseInt(h, 16))))
    .replace(/''/g, "'")
    .replace(/\\\\/g, '\\');
}
