import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { BcfFileError } from './archive.js';

/**
 * Reading and writing the XML of BCF files (fast-xml-parser): attributes under `$`,
 * namespaces dropped, every value kept as the text it was (numbers are parsed where the
 * schema says they are numbers, not guessed).
 */
export type XmlNode = Record<string, unknown>;

const parser = new XMLParser({ ignoreAttributes: false, attributesGroupName: '$', attributeNamePrefix: '', removeNSPrefix: true, parseTagValue: false, parseAttributeValue: false, trimValues: true });
// suppressBooleanAttributes off: the builder would otherwise write an attribute whose value is "true" bare.
const builder = new XMLBuilder({ ignoreAttributes: false, attributesGroupName: '$', attributeNamePrefix: '', format: true, indentBy: '  ', suppressBooleanAttributes: false });

/** The root element `root` of an XML file; a file that is not XML, or has another root, is a BcfFileError naming it. */
export function parseXml(text: string, root: string, file: string): XmlNode {
  let document: XmlNode;
  // XML has no NUL character (nor could a database's text keep one): such a file is not XML.
  const nul = text.indexOf('\u0000');
  if (nul >= 0) throw new BcfFileError(`${file} is not well-formed XML: a NUL character at offset ${nul}`);
  try {
    document = parser.parse(text, true) as XmlNode;
  } catch (error) {
    throw new BcfFileError(`${file} is not well-formed XML: ${(error as Error).message}`);
  }
  const node = document[root];
  if (node === undefined) throw new BcfFileError(`${file} has no <${root}> element`);
  return node === '' ? {} : (node as XmlNode);
}

/** An XML file: the declaration, then `root` built from `content` (attributes under `$`; undefined members left out). */
export function buildXml(root: string, content: XmlNode): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ [root]: prune(content) })}`;
}

function prune(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(prune);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, prune(v)]));
  return value;
}

/** Zero, one or many elements as a list. */
export const list = (value: unknown): XmlNode[] => (value === undefined || value === '' ? [] : Array.isArray(value) ? value : [value]) as XmlNode[];

/** An element's text ('' when empty or absent). */
export const text = (value: unknown): string => (typeof value === 'string' ? value : value && typeof value === 'object' && typeof (value as XmlNode)['#text'] === 'string' ? ((value as XmlNode)['#text'] as string) : '');

/** An element's text, or undefined when it is absent or empty. */
export const optional = (value: unknown): string | undefined => text(value) || undefined;

export const attribute = (node: unknown, name: string): string | undefined => ((node as XmlNode | undefined)?.$ as Record<string, string> | undefined)?.[name];

/** A number element; `what` names it when it is not one. */
export function number(value: unknown, what: string): number {
  const parsed = Number(text(value));
  if (text(value) === '' || !Number.isFinite(parsed)) throw new BcfFileError(`${what} is not a number: ${JSON.stringify(text(value))}`);
  return parsed;
}

export const bool = (value: string | undefined, fallback: boolean): boolean => (value === undefined ? fallback : value.trim().toLowerCase() === 'true' || value.trim() === '1');
