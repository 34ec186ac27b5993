// A vite plugin: our workers get web-ifc with each IFC schema's tables built on first use.
//
// web-ifc's browser module builds, as it is evaluated, its JavaScript side of three
// schemas (IFC2X3, IFC4, IFC4X3): about 12,000 classes and the tables that turn raw
// lines into them. That is over half of an IFC worker's JS heap (~5 MB of 9.4), though a
// worker reads models of one or two schemas. Here each schema's block becomes a function
// that runs when web-ifc first looks up that schema in one of its tables (GetLine,
// GetIfcEntityList, InheritanceDef, ...), so what web-ifc does is unchanged; only when.
//
// Only imports of 'web-ifc' from our own src/ are redirected to this copy: the
// benchmark's peers and the tests' reference code get web-ifc as published. Anything may
// import the copy by its own name, 'virtual:web-ifc-lazy-schemas' (its test does).
import { readFileSync } from 'node:fs';
import { sep } from 'node:path';

const PREFIX = '\0web-ifc-lazy-schemas:';
const TABLES = ['FromRawLineData', 'InheritanceDef', 'InversePropertyDef', 'Constructors', 'ToRawLineData', 'TypeInitialisers'];

export function webIfcLazySchemas({ srcDir }) {
  return {
    name: 'web-ifc-lazy-schemas',
    enforce: 'pre',
    async resolveId(id, importer, options) {
      const ours = id === 'web-ifc' && !!importer?.startsWith(srcDir + sep);
      if (!ours && id !== 'virtual:web-ifc-lazy-schemas') return null;
      const published = await this.resolve('web-ifc', importer, { ...options, skipSelf: true });
      return published ? PREFIX + published.id : null;
    },
    load(id) {
      // The dev server's resolved ids carry a version query (?v=...).
      return id.startsWith(PREFIX) ? lazySchemas(readFileSync(id.slice(PREFIX.length).split('?')[0], 'utf8')) : null;
    },
  };
}

/**
 * web-ifc-api.js with each schema's block (its six tables, then its class namespace) moved
 * into a function run on first lookup. Throws when the file's layout is not the one this
 * was written for (web-ifc is pinned; a new version needs this checked again).
 */
export function lazySchemas(source) {
  const lines = source.split('\n');
  const out = [];
  let schemas = 0;
  for (let i = 0; i < lines.length; i++) {
    const start = /^FromRawLineData\[(\d+)\] = \{$/.exec(lines[i]);
    if (!start) {
      out.push(lines[i]);
      continue;
    }
    const n = Number(start[1]);
    const end = lines.findIndex((line, j) => j > i && /^\}\)\((IFC\w+) \|\| \(\1 = \{\}\)\);$/.test(line));
    if (end < 0) throw new Error(`web-ifc-lazy-schemas: no end of schema ${n}'s block`);
    const block = lines.slice(i, end + 1);
    const namespace = block.filter((line) => /^var IFC\w+;$/.test(line));
    const assigned = block.filter((line) => /^\w+\[\d+\] = /.test(line)).map((line) => line.split('[')[0]);
    if (namespace.length !== 1 || assigned.join() !== TABLES.join()) {
      throw new Error(`web-ifc-lazy-schemas: schema ${n}'s block is not laid out as expected (tables: ${assigned.join(', ')})`);
    }
    if (schemas === 0) out.push(LAZY_SCHEMA);
    // The namespace variable stays at module level: it is exported, and the tables' closures name it.
    out.push(namespace[0], `function loadSchema${n}() {`, ...block.filter((line) => line !== namespace[0]), '}', `lazySchema(${n}, loadSchema${n});`);
    schemas++;
    i = end;
  }
  if (schemas !== 3) throw new Error(`web-ifc-lazy-schemas: found ${schemas} schema blocks, expected 3`);
  return out.join('\n');
}

// Getters on the six tables for schema n; the first lookup drops them and runs the block,
// which assigns the tables as web-ifc always did.
const LAZY_SCHEMA = `function lazySchema(n, load) {
  const tables = [${TABLES.join(', ')}];
  const run = () => {
    for (const table of tables) delete table[n];
    load();
  };
  for (const table of tables) {
    Object.defineProperty(table, n, { configurable: true, enumerable: true, get() { run(); return table[n]; } });
  }
}`;
