import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { IfcAPI } from 'web-ifc';
import { sampleFile } from '../../../samples/files.js';
import { bimModelsFolder } from '../../../scripts/bim-models.mjs';
import { openModel } from '../../../src/core/ifc/web-ifc-engine.js';
import { StepLines } from '../../../src/core/ifc/step-lines.js';
import { StepModel } from '../../../src/core/ifc/step-model.js';
import { ProductReader } from '../../../src/core/ifc/products.js';
import { startWebIfc } from '../../jobs/read-ifc.js';

/**
 * StepLines (src/core/ifc/step-lines.ts) reads the lines of a STEP file in JavaScript in
 * place of web-ifc's GetLine. Checked against web-ifc itself, line by line: the raw
 * arguments equal GetRawLineData's, and the line objects equal GetLine's, on a file of odd
 * but legal syntax and on every line of the generated and the real models.
 */

/** STEP syntax the generator never writes: comments, lines split and joined, signs, exponents, escapes, binary, a string over 64 kB. */
const ODD_FILE = `ISO-10303-21;
HEADER;
FILE_DESCRIPTION(('ViewDefinition [Odd; syntax]'),'2;1');
FILE_NAME('odd.ifc','2026-11-28T00:00:00',('a ''quoted'' author;'),(''),'test','test','None');
FILE_SCHEMA(('IFC4'));
ENDSEC;
DATA;
/* a comment with a ; and a ' before the first line */
#1=IFCOWNERHISTORY(#2,#5,$,.ADDED.,1731578952,#2,#5,1731578952);
#2=IFCPERSONANDORGANIZATION(#3,#4,$); #3=IFCPERSON('id','Jan ''B.'';',$,$,$,$,$,$);
#4=IFCORGANIZATION($,'Org \\X2\\00FC00DF\\X0\\ \\S\\0 \\X\\E9 \\\\ back',
   'spread over
three lines',$,$);
#5 = IFCAPPLICATION( #6 , '5.3.3' , 'app' , 'su' ) ;
#6=IFCORGANIZATION($,'Caf\u00e9 na\u00efve \u65e5\u672c',$,$,$);
#7=IFCAXIS2PLACEMENT3D(#8,#9,#10);
#8=IFCCARTESIANPOINT((-0.5E-3,+2.,1e5));
#9=IFCDIRECTION((0.,0.,1.));
#10=IFCDIRECTION((1.,-0.,0.));
#11=IFCGEOMETRICREPRESENTATIONCONTEXT($,'Model',3,1.E-05,#7,$);
#12=IFCGEOMETRICREPRESENTATIONSUBCONTEXT('Body','Model',*,*,*,*,#11,$,.MODEL_VIEW.,$);
#13=IFCPROJECT('2Ndyd$OSX7s9A04nc4lyye',#1,'p',/* inside */ $,$,$,$,(#11),#14);
#14=IFCUNITASSIGNMENT((#15));
#15=IFCSIUNIT(*,.LENGTHUNIT.,.MILLI.,.METRE.);
#20=IFCPROPERTYSINGLEVALUE('label',$,IFCLABEL('x;y'),$);
#21=IFCPROPERTYSINGLEVALUE('unknown',$,IFCLOGICAL(.U.),$);
#22=IFCPROPERTYSINGLEVALUE('true',$,IFCBOOLEAN(.T.),$);
#23=IFCPROPERTYSINGLEVALUE('integer',$,IFCINTEGER(-42),$);
#24=IFCPROPERTYSINGLEVALUE('real',$,IFCREAL(-1.5E+3),$);
#25=IFCPROPERTYSINGLEVALUE('complex',$,IFCCOMPLEXNUMBER((1.,2.)),$);
#26=IFCPROPERTYSINGLEVALUE('binary',$,IFCBINARY("0ABC"),$);
#27=IFCPROPERTYSINGLEVALUE('empty','',IFCTEXT(''),$);
#28=IFCPROPERTYLISTVALUE('list',$,(IFCLABEL('a'),IFCLABEL('b')),$);
#29=IFCPROPERTYSET('0gLz00O0H9XhZA1crsmo4_',#1,'set',$,(#20,#21,#22,#23,#24,#25,#26,#27,#28));
#30=IFCPROPERTYENUMERATION('enum',(IFCLABEL('a')),$);
#32=IFCPROPERTYSINGLEVALUE('long',$,IFCTEXT('${'a'.repeat(70_000)}'),$);
ENDSEC;
END-ISO-10303-21;
`;

/** The StepModel of the file a test reads (closed by it: it may open the file in web-ifc for the lines it leaves there). */
let step: StepModel | undefined;

async function open(bytes: Uint8Array): Promise<[IfcAPI, number]> {
  step = undefined;
  const ifc = await startWebIfc();
  return [ifc, openModel(ifc, bytes.slice())];
}

/** Every line of the file, raw and as a line object, ours against web-ifc's; the mismatches (at most 5 of each). */
async function compareLines(bytes: Uint8Array): Promise<{ lines: number; mismatches: string[] }> {
  const [ifc, model] = await open(bytes);
  try {
    const codes = new Map<string, number>();
    const code = (name: string) => codes.get(name) ?? (codes.set(name, ifc.GetTypeCodeFromName(name)), codes.get(name)!);
    const lines = new StepLines(bytes, ifc.GetMaxExpressID(model), code, (raw) => ifc.DecodeText(raw));
    step = new StepModel(ifc, bytes);
    const read = (id: number) => step!.GetLine(0, id, false);
    const all = ifc.GetAllLines(model);
    const mismatches: string[] = [];
    for (let k = 0; k < all.size(); k++) {
      const id = all.get(k);
      const theirs = JSON.stringify(ifc.GetRawLineData(model, id));
      let ours: string;
      try {
        const raw = lines.read(id);
        ours = JSON.stringify(raw && { ID: id, type: raw.type, arguments: raw.arguments });
      } catch (e) {
        ours = `refused: ${(e as Error).message}`;
      }
      // a line StepLines refuses is left to web-ifc (the reader's fallback, checked below)
      if (ours !== theirs && !ours.startsWith('refused') && mismatches.length < 5) mismatches.push(`#${id} raw: ${theirs} / ${ours}`);
      const line = JSON.stringify(read(id));
      const expected = JSON.stringify(ifc.GetLine(model, id, false));
      if (line !== expected && mismatches.length < 10) mismatches.push(`#${id} line: ${expected} / ${line}`);
    }
    return { lines: all.size(), mismatches };
  } finally {
    step?.close();
    ifc.CloseModel(model);
  }
}

describe('StepLines: the lines of a STEP file read in JavaScript', () => {
  it('reads odd but legal syntax as web-ifc does', async () => {
    const bytes = new TextEncoder().encode(ODD_FILE);
    const { lines, mismatches } = await compareLines(bytes);
    assert.equal(lines, 27);
    assert.deepEqual(mismatches, []);
  });

  it('leaves a line it cannot tokenize to web-ifc, and answers a missing line as web-ifc does', async () => {
    const bytes = new TextEncoder().encode(ODD_FILE);
    const [ifc, model] = await open(bytes);
    try {
      const lines = new StepLines(bytes, ifc.GetMaxExpressID(model), (n) => ifc.GetTypeCodeFromName(n), (raw) => ifc.DecodeText(raw));
      assert.throws(() => lines.read(26), /binary values are left to web-ifc/);
      assert.throws(() => lines.read(32), /over 64 kB is left to web-ifc/);
      assert.equal(lines.read(16), null);
      step = new StepModel(ifc, bytes);
      const read = (id: number) => step!.GetLine(0, id, false);
      assert.deepEqual(read(32), ifc.GetLine(model, 32, false), 'web-ifc keeps 16 bits of a string\'s length: its own reading');
      assert.deepEqual(read(26), ifc.GetLine(model, 26, false));
      assert.equal(read(26).NominalValue.value, ifc.GetLine(model, 26, false).NominalValue.value);
      assert.equal(read(16), ifc.GetLine(model, 16, false));
      assert.equal(read(16), undefined);
      assert.equal(read(4).Name.value, 'Org \u00fc\u00df \u00b0 \u00e9 \\ back');
    } finally {
      step?.close();
      ifc.CloseModel(model);
    }
  });

  it('leaves a string that is not UTF-8 to web-ifc, which reads it its own way', async () => {
    const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
    const bytes = latin1(ODD_FILE.replace("'Jan ''B.'';'", "'Jos\u00e9 short'").replace("'label',$,IFCLABEL('x;y')", "'label',$,IFCLABEL('x \u00e9\u00e8 a longer string of raw ISO 8859-1 bytes')"));
    const [ifc, model] = await open(bytes);
    try {
      const lines = new StepLines(bytes, ifc.GetMaxExpressID(model), (n) => ifc.GetTypeCodeFromName(n), (raw) => ifc.DecodeText(raw));
      assert.throws(() => lines.read(3), /not UTF-8/);
      assert.throws(() => lines.read(20), /not UTF-8/);
      step = new StepModel(ifc, bytes);
      for (const id of [3, 20]) assert.deepEqual(JSON.stringify(step.GetLine(0, id, false)), JSON.stringify(ifc.GetLine(model, id, false)), `#${id}`);
    } finally {
      step?.close();
      ifc.CloseModel(model);
    }
  });

  for (const name of ['house', 'house-ifc2x3', 'office-2k']) {
    it(`reads every line of the generated ${name} as web-ifc does`, async () => {
      const { lines, mismatches } = await compareLines(new Uint8Array(readFileSync(sampleFile(name).ifc)));
      assert.ok(lines > 3000, `${lines} lines`);
      assert.deepEqual(mismatches, []);
    });
  }

  const real = bimModelsFolder();
  it(`reads every line of every real model (${real ?? 'BIM_MODELS not found: none'}) as web-ifc does`, async () => {
    const files = real ? readdirSync(real).filter((f) => f.toLowerCase().endsWith('.ifc')) : [];
    for (const file of files) {
      const { lines, mismatches } = await compareLines(new Uint8Array(readFileSync(path.join(real!, file))));
      assert.ok(lines > 0, file);
      assert.deepEqual(mismatches, [], file);
    }
  });

  it('gives ProductReader over a StepModel the same products, attributes and definitions as over web-ifc with the file open', async () => {
    const bytes = new Uint8Array(readFileSync(sampleFile('house').ifc));
    const [ifc, model] = await open(bytes);
    try {
      const plain = new ProductReader(ifc, model, '1000');
      step = new StepModel(ifc, bytes);
      const fast = new ProductReader(step, 0, '1000');
      const ids = plain.productIds();
      assert.ok(ids.length > 100);
      for (const id of ids) {
        const options = { attributes: true, definedBy: true };
        assert.deepEqual(fast.product(id, options), plain.product(id, options), `#${id}`);
      }
      assert.deepEqual(fast.spatial(), plain.spatial());
    } finally {
      step?.close();
      ifc.CloseModel(model);
    }
  });
});
