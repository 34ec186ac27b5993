// A vite plugin: our workers get web-ifc with each IFC schema's tables in a file of its own,
// loaded when the worker opens a model of that schema.
//
// web-ifc's browser module holds, and builds as it is evaluated, its JavaScript side of
// three schemas (IFC2X3, IFC4, IFC4X3): about 12,000 classes and the tables that turn raw
// lines into them. That is 5.4 of its 5.9 MB of source, which a starting worker had to
// compile before it could do anything (150-200 ms on two cores), and over half of its JS
// heap, though a worker reads models of one or two schemas. Here each schema's block moves
// into a module of its own, `install(deps)`, and web-ifc gains one export:
//
//   loadSchemaTables(n, url?)   loads schema n's module (n as in web-ifc's SchemaNames) and
//                               runs it; the tables then read exactly as before.
//
// Until then a lookup of that schema in one of the six tables (GetLine, GetIfcEntityList,
// InheritanceDef, ...) throws, saying so. A module worker loads the schema's module with
// import() (a chunk of the build); a classic worker (`classic: true`, the script-tag
// builds) runs `url` with importScripts: a file built apart (scripts/build.mjs) that
// defines `bimWebIfcSchema<n>`.
//
// Only imports of 'web-ifc' from our own src/ are redirected to this copy: the
// benchmark's peers and the tests' reference code get web-ifc as published. Anything may
// import the copy by its own name, 'virtual:web-ifc-lazy-schemas' (its test does), and a
// schema's module as 'virtual:web-ifc-schema/<n>'.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { sep } from 'node:path';

const PREFIX = '\0web-ifc-lazy-schemas:';
const SCHEMA_PREFIX = '\0web-ifc-schema:';
// (A build's entry may arrive as a path under its root.)
const SCHEMA_ID = /(?:^|\/)virtual:web-ifc-schema\/(\d)$/;
const TABLES = ['FromRawLineData', 'InheritanceDef', 'InversePropertyDef', 'Constructors', 'ToRawLineData', 'TypeInitialisers'];
export const SCHEMA_GLOBAL = 'bimWebIfcSchema';

export function webIfcLazySchemas({ srcDir, classic = false }) {
  let split = null;
  const published = () => createRequire(srcDir + sep).resolve('web-ifc').replace(/web-ifc-api-node\.js$/, 'web-ifc-api.js');
  const parts = () => (split ??= splitSchemas(readFileSync(published(), 'utf8'), { classic }));
  return {
    name: 'web-ifc-lazy-schemas',
    enforce: 'pre',
    async resolveId(id, importer, options) {
      const schema = SCHEMA_ID.exec(id);
      if (schema) return SCHEMA_PREFIX + schema[1];
      const ours = id === 'web-ifc' && !!importer?.startsWith(srcDir + sep);
      if (!ours && id !== 'virtual:web-ifc-lazy-schemas') return null;
      const resolved = await this.resolve('web-ifc', importer, { ...options, skipSelf: true });
      return resolved ? PREFIX + resolved.id : null;
    },
    load(id) {
      if (id.startsWith(SCHEMA_PREFIX)) return parts().schemas.get(Number(id.slice(SCHEMA_PREFIX.length)));
      return id.startsWith(PREFIX) ? parts().main : null;
    },
  };
}

/**
 * web-ifc-api.js split: `main` with each schema's block (its six tables, then its class
 * namespace) replaced by a loader, and `schemas`, each block as a module of its own.
 * Throws when the file's layout is not the one this was written for (web-ifc is pinned;
 * a new version needs this checked again).
 */
export function splitSchemas(source, { classic = false } = {}) {
  const lines = source.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const start = /^FromRawLineData\[(\d+)\] = \{$/.exec(lines[i]);
    if (!start) continue;
    const end = lines.findIndex((line, j) => j > i && /^\}\)\((IFC\w+) \|\| \(\1 = \{\}\)\);$/.test(line));
    if (end < 0) throw new Error(`web-ifc-lazy-schemas: no end of schema ${start[1]}'s block`);
    blocks.push({ n: Number(start[1]), start: i, end });
    i = end;
  }
  if (blocks.length !== 3) throw new Error(`web-ifc-lazy-schemas: found ${blocks.length} schema blocks, expected 3`);

  // What the blocks may name from the rest of the module: its top-level declarations.
  const inBlock = (i) => blocks.some((b) => i >= b.start && i <= b.end);
  const topLevel = new Set();
  lines.forEach((line, i) => {
    const declared = /^(?:var|let|const|class|function\*?|async function) ([\w$]+)/.exec(line);
    if (declared && !inBlock(i)) topLevel.add(declared[1]);
  });

  const out = [];
  const schemas = new Map();
  let from = 0;
  for (const { n, start, end } of blocks) {
    out.push(...lines.slice(from, start));
    const block = lines.slice(start, end + 1);
    const namespace = block.filter((line) => /^var IFC\w+;$/.test(line));
    const assigned = block.filter((line) => /^\w+\[\d+\] = /.test(line)).map((line) => line.split('[')[0]);
    if (namespace.length !== 1 || assigned.join() !== TABLES.join()) {
      throw new Error(`web-ifc-lazy-schemas: schema ${n}'s block is not laid out as expected (tables: ${assigned.join(', ')})`);
    }
    const name = namespace[0].slice(4, -1);
    const text = block.filter((line) => line !== namespace[0]).join('\n');
    const deps = [...new Set(text.match(/(?<![\w$.])[A-Za-z_$][\w$]*/g))].filter((id) => topLevel.has(id));
    // The namespace variable stays at module level: it is exported.
    out.push(namespace[0], `lazySchema(${n}, (install) => { ${name} = install({ ${deps.join(', ')} }); });`);
    schemas.set(n, `export function install({ ${deps.join(', ')} }) {\nvar ${name};\n${text}\nreturn ${name};\n}\n`);
    from = end + 1;
  }
  out.push(...lines.slice(from));
  const at = out.findIndex((line) => line.startsWith('lazySchema('));
  out.splice(at - 1, 0, loader(blocks.map((b) => b.n), classic));
  return { main: out.join('\n'), schemas };
}

// The tables' entries for schema n are getters that throw until loadSchemaTables(n) has
// dropped them and run the schema's module, which assigns the tables as web-ifc always did.
function loader(numbers, classic) {
  const load = classic
    ? `(n, url) => {
    if (!url) throw new Error('web-ifc: no URL for the tables of schema ' + n);
    importScripts(url);
    const module = self['${SCHEMA_GLOBAL}' + n];
    delete self['${SCHEMA_GLOBAL}' + n];
    if (!module) throw new Error('web-ifc: ' + url + ' does not define the tables of schema ' + n);
    return module;
  }`
    : `(n) => {
    switch (n) {
${numbers.map((n) => `      case ${n}: return import('virtual:web-ifc-schema/${n}');`).join('\n')}
    }
  }`;
  return `const schemaTables = [${TABLES.join(', ')}];
const schemaSetters = {};
const schemaLoads = {};
const loadSchemaModule = ${load};
function lazySchema(n, set) {
  schemaSetters[n] = set;
  for (const table of schemaTables) {
    Object.defineProperty(table, n, {
      configurable: true,
      enumerable: true,
      get() { throw new Error('web-ifc: the tables of schema ' + n + ' are not loaded (loadSchemaTables(' + n + '))'); },
    });
  }
}
export function loadSchemaTables(n, url) {
  if (!schemaSetters[n]) return Promise.reject(new Error('web-ifc: no schema ' + n));
  schemaLoads[n] ??= Promise.resolve().then(() => loadSchemaModule(n, url)).then((module) => {
    for (const table of schemaTables) delete table[n];
    schemaSetters[n](module.install);
  });
  schemaLoads[n].catch(() => { delete schemaLoads[n]; });
  return schemaLoads[n];
}`;
}
