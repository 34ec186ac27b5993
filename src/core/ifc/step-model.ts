import { InheritanceDef, type IfcAPI, type RawLineData, type Vector } from 'web-ifc';
import { StepLines, lineClasses } from './step-lines.js';
import { checkStep, fileSchema, headerProblem, openModel, schemaId, type ModelLines } from './web-ifc-engine.js';

/**
 * A model's lines answered from the file's bytes (StepLines), as web-ifc answers them for
 * a model it has open: the lines by type, their types, the line objects and raw arguments.
 * The import's products thread reads through one, so it does not open the file in web-ifc
 * too (the scene thread does): office-200k's open took that thread 2.4 s, and held a
 * second copy of the parsed model in wasm memory. The few lines JavaScript does not read
 * (binary values, strings that are not UTF-8 or over 64 kB, types FromRawLineData does not
 * build) are read by web-ifc after all: the file is opened in it the first time one is met.
 * Its one file is the only model it knows: the `modelID` of each call is not looked at.
 */
export class StepModel implements ModelLines {
  private readonly lines: StepLines;
  private readonly schemaName: string;
  private readonly schema: number;
  private readonly construct: ReturnType<typeof lineClasses>;
  private readonly codes = new Map<string, number>();
  /** Express ids by type code, in the file's order: made on the first GetLineIDsWithType. */
  private byType?: Map<number, Uint32Array>;
  /** The file in web-ifc, once a line needed it. */
  private opened?: number;

  /** `api`: an initialised web-ifc, for its type names and its own reading of the lines JavaScript leaves to it. */
  constructor(private readonly api: IfcAPI, private readonly bytes: Uint8Array) {
    checkStep(bytes);
    const schema = fileSchema(bytes);
    this.schema = schema === null ? -1 : schemaId(schema);
    // The error web-ifc's open gives (web-ifc-engine.ts openModel), for the same files.
    if (schema === null || this.schema < 0) throw new Error(headerProblem(bytes) ?? 'web-ifc could not open the IFC file');
    this.schemaName = schema;
    this.construct = lineClasses(this.schema);
    this.lines = new StepLines(bytes, undefined, (name) => this.GetTypeCodeFromName(name), (raw) => api.DecodeText(raw));
  }

  GetModelSchema(): string {
    return this.schemaName;
  }

  GetMaxExpressID(): number {
    return this.lines.maxExpressId;
  }

  GetLineType(_modelID: number, expressId: number): number {
    return this.lines.lineType(expressId);
  }

  GetLineIDsWithType(_modelID: number, type: number, includeInherited = false): Vector<number> {
    const byType = (this.byType ??= this.indexTypes());
    const types = [type, ...(includeInherited ? ((InheritanceDef as Record<number, Record<number, number[]>>)[this.schema]?.[type] ?? []) : [])];
    const lists = types.map((t) => byType.get(t)).filter((list) => list !== undefined);
    let ids = lists[0] ?? new Uint32Array(0);
    if (lists.length > 1) {
      ids = new Uint32Array(lists.reduce((n, list) => n + list.length, 0));
      let at = 0;
      for (const list of lists) {
        ids.set(list, at);
        at += list.length;
      }
    }
    return { get: (i: number) => ids[i], size: () => ids.length, [Symbol.iterator]: () => ids[Symbol.iterator]() };
  }

  GetLine(_modelID: number, expressId: number, flatten = false): any { // eslint-disable-line @typescript-eslint/no-explicit-any
    if (!this.lines.has(expressId)) return undefined;
    const raw = flatten ? null : this.raw(expressId);
    const make = raw && this.construct?.[raw.type];
    if (!make) return this.api.GetLine(this.web(), expressId, flatten);
    const line = make(raw.arguments);
    line.expressID = expressId;
    return line;
  }

  GetRawLineData(_modelID: number, expressId: number): RawLineData {
    const raw = this.raw(expressId);
    if (!raw) return this.api.GetRawLineData(this.web(), expressId);
    return { ID: expressId, type: raw.type, arguments: raw.arguments as RawLineData['arguments'] };
  }

  GetNameFromTypeCode(type: number): string {
    return this.api.GetNameFromTypeCode(type);
  }

  GetTypeCodeFromName(name: string): number {
    let code = this.codes.get(name);
    if (code === undefined) this.codes.set(name, (code = this.api.GetTypeCodeFromName(name)));
    return code;
  }

  DecodeText(text: string): string {
    return this.api.DecodeText(text);
  }

  /** Whether a line needed the file open in web-ifc (and it is, until close). */
  get openedInWebIfc(): boolean {
    return this.opened !== undefined;
  }

  /** Closes the file in web-ifc, if a line needed it there. */
  close(): void {
    if (this.opened !== undefined) this.api.CloseModel(this.opened);
    this.opened = undefined;
  }

  /** The line's type code and raw arguments, or null where JavaScript leaves the line to web-ifc. */
  private raw(expressId: number) {
    try {
      return this.lines.read(expressId);
    } catch {
      return null;
    }
  }

  private web(): number {
    return (this.opened ??= openModel(this.api, this.bytes));
  }

  /**
   * The lines' ids grouped by type in one array (a counting sort), each type's a view of
   * it: half the memory of an array per type pushed to line by line, and a little faster
   * (office-200k's 4.6M lines, with their type codes: 0.84 -> 0.78 s).
   */
  private indexTypes(): Map<number, Uint32Array> {
    const { order } = this.lines;
    // Each line's type code, then in place its type's number here (types in order of first line).
    const types = this.lines.typeCodes();
    const numbers = new Map<number, number>();
    const counts: number[] = [];
    let lastCode = -1, last = 0;
    for (let k = 0; k < types.length; k++) {
      const code = types[k];
      // Lines of a type often come together (points, then directions...): one look-up per run.
      if (code !== lastCode) {
        let n = numbers.get(code);
        if (n === undefined) numbers.set(code, (n = counts.push(0) - 1));
        lastCode = code;
        last = n;
      }
      types[k] = last;
      counts[last]++;
    }
    const first = new Uint32Array(counts.length + 1);
    for (let n = 0; n < counts.length; n++) first[n + 1] = first[n] + counts[n];
    const ids = new Uint32Array(types.length);
    const next = first.slice(0, counts.length);
    for (let k = 0; k < types.length; k++) ids[next[types[k]]++] = order[k];
    const byType = new Map<number, Uint32Array>();
    for (const [code, n] of numbers) byType.set(code, ids.subarray(first[n], first[n + 1]));
    return byType;
  }
}
