import fc from 'fast-check';
import { strToU8, strFromU8, unzipSync, zipSync } from 'fflate';

/**
 * Bad BCF files for the import (POST .../projects/{id}/import), made from a sound one the
 * server exported: bytes cut or flipped, XML cut, values swapped for wrong ones, attributes
 * dropped, elements nested 10,000 deep, character references to NUL, entities that expand,
 * entries whose names climb out of any folder (`../`), an archive that unpacks to far more
 * than it weighs.
 */
export interface BadArchive {
  what: string;
  bytes: Uint8Array;
  [fc.toStringMethod]?: () => string;
}

const EDGE_VALUES = ['', '&#0;', '&#xD800;', '\u0000', 'x'.repeat(100_000), '-1', '1e400', '2147483648', '99999999999999999999', '+275760-09-13T00:00:00Z', 'NaN', '9999-99-99T99:99:99Z', '+275760-09-13T00:00:00Z', 'not-a-guid', '00000000-0000-0000-0000-000000000000', '../../../etc/passwd', '<![CDATA[x]]>', '&unknown;'];

export function badArchives(sound: Uint8Array, marker: string): fc.Arbitrary<BadArchive> {
  const files = unzipSync(sound);
  const names = Object.keys(files);
  const xmlNames = names.filter((n) => /\.(bcf|bcfv|bcfp|xml|version|xsd)$/i.test(n));
  const rezip = (change: (entries: Record<string, Uint8Array>) => void) => {
    const copy = { ...files };
    change(copy);
    return zipSync(copy);
  };
  const editXml = (name: string, edit: (xml: string) => string) => rezip((entries) => (entries[name] = strToU8(edit(strFromU8(files[name])))));
  const label = (what: string, bytes: Uint8Array): BadArchive => ({ what, bytes, [fc.toStringMethod]: () => `${what} (${bytes.length} bytes)` });

  const xmlName = fc.constantFrom(...xmlNames);
  return fc.oneof(
    fc.integer({ min: 0, max: sound.length - 1 }).map((at) => label(`cut at ${at}`, sound.subarray(0, at))),
    fc.tuple(fc.integer({ min: 0, max: sound.length - 1 }), fc.integer({ min: 1, max: 255 })).map(([at, x]) => {
      const bytes = Uint8Array.from(sound);
      bytes[at] ^= x;
      return label(`byte ${at} flipped`, bytes);
    }),
    fc.uint8Array({ maxLength: 2000 }).map((b) => label('random bytes', b)),
    fc.tuple(xmlName, fc.nat()).map(([name, n]) => label(`${name} cut`, editXml(name, (xml) => xml.slice(0, n % (xml.length + 1))))),
    // A value between tags or in an attribute swapped for a wrong one.
    fc.tuple(xmlName, fc.nat(), fc.constantFrom(...EDGE_VALUES)).map(([name, n, value]) =>
      label(`${name}: a value ${JSON.stringify(value.slice(0, 20))}`, editXml(name, (xml) => {
        const spots = [...xml.matchAll(/>([^<]+)</g), ...xml.matchAll(/="([^"]*)"/g)];
        if (!spots.length) return xml;
        const spot = spots[n % spots.length];
        const at = spot.index! + spot[0].indexOf(spot[1], 1);
        return xml.slice(0, at) + value + xml.slice(at + spot[1].length);
      })),
    ),
    fc.tuple(xmlName, fc.constantFrom('Guid', 'TopicGuid', 'VersionId', 'Filename', 'Date', 'CreationDate')).map(([name, attribute]) =>
      label(`${name} without ${attribute}`, editXml(name, (xml) => xml.replace(new RegExp(`\\s${attribute}="[^"]*"`, 'g'), '').replace(new RegExp(`<${attribute}>[^<]*</${attribute}>`, 'g'), ''))),
    ),
    fc.tuple(xmlName, fc.constantFrom(1_000, 10_000, 50_000)).map(([name, levels]) =>
      label(`${name}: ${levels} levels deep`, editXml(name, (xml) => xml.replace(/(<[A-Za-z][^>]*[^/]>)/, `$1${'<a>'.repeat(levels)}${'</a>'.repeat(levels)}`))),
    ),
    xmlName.map((name) =>
      label(`${name}: entities that expand`, editXml(name, (xml) => xml.replace(/^(<\?xml[^>]*\?>)?/, `$1<!DOCTYPE x [<!ENTITY a "${'a'.repeat(1000)}"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>`).replace(/>([^<]{1,40})</, '>&d;<'))),
    ),
    fc.constantFrom(`../../../../../../tmp/${marker}`, `/tmp/${marker}`, `..\\..\\${marker}`, `documents/../../${marker}`).chain((name) =>
      fc.constantFrom(...names).map((original) => label(`an entry named ${name}`, rezip((entries) => (entries[name] = files[original])))),
    ),
    fc.constantFrom(600 * 2 ** 20, 2 ** 32 - 1, 1, 0).map((claimed) => label(`an entry of 10 MB of zeros whose headers say ${claimed} bytes`, claimSize(zipSync({ ...files, 'zeros.bin': new Uint8Array(10 * 2 ** 20) }), 'zeros.bin', claimed))),
  );
}

/** The archive with `name`'s uncompressed size, in its local and central headers, set to `size`. */
function claimSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const bytes = Uint8Array.from(zip);
  const view = new DataView(bytes.buffer);
  const wanted = strToU8(name);
  for (let at = 0; at + 46 < bytes.length; at++) {
    const signature = view.getUint32(at, true);
    const [sizeAt, nameLengthAt, nameAt] = signature === 0x04034b50 ? [22, 26, 30] : signature === 0x02014b50 ? [24, 28, 46] : [];
    if (sizeAt === undefined) continue;
    const length = view.getUint16(at + nameLengthAt!, true);
    if (length === wanted.length && wanted.every((b, i) => bytes[at + nameAt! + i] === b)) view.setUint32(at + sizeAt, size, true);
  }
  return bytes;
}
