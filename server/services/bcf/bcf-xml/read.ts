import { createHash } from 'node:crypto';
import { unzipSync } from 'fflate';
import { isUuid } from '../boards.js';
import { BcfFileError, emptyExtensions, type ArchiveDocument, type ArchiveExtensions, type ArchiveTopic, type BcfArchive, type BcfXmlVersion } from './archive.js';
import { readVisinfo } from './visinfo.js';
import { attribute, bool, list, number, optional, parseXml, text, type XmlNode } from './xml.js';

/**
 * A .bcf/.bcfzip file (BCF-XML 2.0, 2.1 or 3.0) read whole into a BcfArchive. 2.0 is read
 * leniently (many of buildingSMART's 2.0 test cases lack parts their schema asks for);
 * anything that cannot be read (not a zip, no topics, a topic without its title, a
 * viewpoint file that is missing or not XML) is a BcfFileError that names the file.
 */

/** Unpacked, a BCF file may hold at most this much: more is refused before it is unpacked. */
export const MAX_UNPACKED_BYTES = 512 * 1024 * 1024;

const decoder = new TextDecoder('utf-8');

export function readBcf(bytes: Uint8Array): BcfArchive {
  const files = unzip(bytes);
  const xml = (name: string) => {
    const file = files.get(name);
    return file ? decoder.decode(file).replace(/^\uFEFF/, '') : undefined;
  };
  const versionXml = xml('bcf.version');
  const versionId = versionXml ? attribute(parseXml(versionXml, 'Version', 'bcf.version'), 'VersionId') : '2.0';
  const version = (['2.0', '2.1', '3.0'] as const).find((v) => versionId?.startsWith(v));
  if (!version) throw new BcfFileError(`BCF version ${JSON.stringify(versionId)} is not supported (2.0, 2.1, 3.0)`);

  const archive: BcfArchive = { version, extensions: emptyExtensions(), documents: [], topics: [] };
  const project = xml('project.bcfp');
  if (project) {
    const root = parseXml(project, version === '3.0' ? 'ProjectInfo' : 'ProjectExtension', 'project.bcfp');
    const p = root.Project as XmlNode | undefined;
    const id = attribute(p, 'ProjectId');
    if (id) archive.project = { id, name: optional(p?.Name) };
    const schema = optional(root.ExtensionSchema);
    const xsd = schema ? xml(schema.replace(/^\.?\//, '')) : undefined;
    if (xsd) archive.extensions = extensionsFromSchema(xsd);
  }
  const extensions = xml('extensions.xml');
  if (extensions) archive.extensions = extensionsFromXml(extensions);
  if (version === '3.0') archive.documents = documents(xml('documents.xml'), files);

  const folders = [...files.keys()].filter((name) => /^[^/]+\/markup\.bcf$/i.test(name)).map((name) => name.split('/')[0]);
  if (!folders.length) throw new BcfFileError('The BCF file has no topics (no <folder>/markup.bcf)');
  for (const folder of folders.sort()) archive.topics.push(topic(folder, version, files, archive));
  return archive;
}

function unzip(bytes: Uint8Array): Map<string, Uint8Array> {
  let total = 0;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, {
      filter: (file) => {
        total += file.originalSize;
        if (total > MAX_UNPACKED_BYTES) throw new BcfFileError(`The BCF file unpacks to more than ${MAX_UNPACKED_BYTES / 2 ** 20} MB`);
        return !file.name.endsWith('/');
      },
    });
  } catch (error) {
    if (error instanceof BcfFileError) throw error;
    throw new BcfFileError(`Not a BCF file: it is not a zip archive (${(error as Error).message})`);
  }
  return new Map(Object.entries(entries).map(([name, data]) => [name.replace(/\\/g, '/'), data]));
}

/** 2.x: the values of the extension schema's enumerations (TopicType, TopicStatus, ...). */
function extensionsFromSchema(xsd: string): ArchiveExtensions {
  const result = emptyExtensions();
  const fields: Record<string, keyof ArchiveExtensions> = { TopicType: 'topic_type', TopicStatus: 'topic_status', Priority: 'priority', TopicLabel: 'topic_label', UserIdType: 'users', SnippetType: 'snippet_type', Stage: 'stage' };
  const walk = (node: unknown) => {
    for (const item of list(node)) {
      if (!item || typeof item !== 'object') continue;
      const field = fields[attribute(item, 'name') ?? ''];
      if (field && 'restriction' in item) result[field].push(...list((item.restriction as XmlNode).enumeration).map((e) => attribute(e, 'value')!).filter(Boolean));
      for (const [key, child] of Object.entries(item)) if (key !== '$') walk(child);
    }
  };
  walk(parseXml(xsd, 'schema', 'the extension schema'));
  return result;
}

/** 3.0's extensions.xml. */
function extensionsFromXml(text_: string): ArchiveExtensions {
  const root = parseXml(text_, 'Extensions', 'extensions.xml');
  const values = (group: string, item: string) => list((root[group] as XmlNode | undefined)?.[item]).map(text).filter(Boolean);
  return {
    topic_type: values('TopicTypes', 'TopicType'),
    topic_status: values('TopicStatuses', 'TopicStatus'),
    priority: values('Priorities', 'Priority'),
    topic_label: values('TopicLabels', 'TopicLabel'),
    users: values('Users', 'User'),
    snippet_type: values('SnippetTypes', 'SnippetType'),
    stage: values('Stages', 'Stage'),
  };
}

function documents(xml: string | undefined, files: Map<string, Uint8Array>): ArchiveDocument[] {
  if (!xml) return [];
  const root = parseXml(xml, 'DocumentInfo', 'documents.xml');
  return list((root.Documents as XmlNode | undefined)?.Document).map((d) => {
    const guid = guidOf(d, 'A document of documents.xml');
    const bytes = files.get(`documents/${guid}`) ?? files.get(`Documents/${guid}`);
    if (!bytes) throw new BcfFileError(`documents.xml lists the document ${guid}, which documents/ does not have`);
    return { guid, filename: text(d.Filename), description: optional(d.Description), bytes };
  });
}

const guidOf = (node: unknown, what: string): string => {
  const guid = attribute(node, 'Guid');
  if (!isUuid(guid)) throw new BcfFileError(`${what} has no Guid (a UUID): ${JSON.stringify(guid ?? null)}`);
  return guid.toLowerCase();
};

function topic(folder: string, version: BcfXmlVersion, files: Map<string, Uint8Array>, archive: BcfArchive): ArchiveTopic {
  const markupName = `${folder}/markup.bcf`;
  const markup = parseXml(decoder.decode(files.get(markupName)!).replace(/^\uFEFF/, ''), 'Markup', markupName);
  const t = markup.Topic as XmlNode | undefined;
  if (!t) throw new BcfFileError(`${markupName} has no <Topic>`);
  const title = text(t.Title);
  if (!title) throw new BcfFileError(`${markupName}: the topic has no title`);
  const v3 = version === '3.0';
  const inFolder = new Map([...files].filter(([name]) => name.startsWith(`${folder}/`)).map(([name, data]) => [name.slice(folder.length + 1), data]));
  const snippet = t.BimSnippet as XmlNode | undefined;
  const result: ArchiveTopic = {
    guid: guidOf(t, `${markupName}: the topic`),
    server_assigned_id: attribute(t, 'ServerAssignedId'),
    topic_type: attribute(t, 'TopicType') || undefined,
    topic_status: attribute(t, 'TopicStatus') || undefined,
    reference_links: list(v3 ? (t.ReferenceLinks as XmlNode | undefined)?.ReferenceLink : t.ReferenceLink).map(text).filter(Boolean),
    title,
    priority: optional(t.Priority),
    index: t.Index !== undefined && text(t.Index) !== '' ? number(t.Index, `${markupName}: Index`) : undefined,
    labels: list(v3 ? (t.Labels as XmlNode | undefined)?.Label : t.Labels).map(text).filter(Boolean),
    creation_date: text(t.CreationDate),
    creation_author: text(t.CreationAuthor),
    modified_date: optional(t.ModifiedDate),
    modified_author: optional(t.ModifiedAuthor),
    due_date: optional(t.DueDate),
    assigned_to: optional(t.AssignedTo),
    stage: optional(t.Stage),
    description: optional(t.Description),
    bim_snippet: snippet
      ? { snippet_type: attribute(snippet, 'SnippetType') ?? '', is_external: bool(attribute(snippet, v3 ? 'IsExternal' : 'isExternal'), false), reference: text(snippet.Reference), reference_schema: text(snippet.ReferenceSchema) }
      : undefined,
    document_references: [],
    related_topics: list(v3 ? (t.RelatedTopics as XmlNode | undefined)?.RelatedTopic : t.RelatedTopic).map((r) => guidOf(r, `${markupName}: a related topic`)),
    comments: [],
    viewpoints: [],
  };
  if (!result.creation_date || Number.isNaN(Date.parse(result.creation_date))) throw new BcfFileError(`${markupName}: the topic's CreationDate is not a date: ${JSON.stringify(result.creation_date)}`);

  for (const [i, ref] of list(v3 ? (t.DocumentReferences as XmlNode | undefined)?.DocumentReference : t.DocumentReference).entries()) {
    const guid = attribute(ref, 'Guid') ? guidOf(ref, `${markupName}: a document reference`) : derivedGuid(`${result.guid}/document-reference/${i}`);
    const description = optional(ref.Description);
    if (v3) {
      const documentGuid = optional(ref.DocumentGuid)?.toLowerCase();
      result.document_references.push({ guid, ...(documentGuid ? { document_guid: documentGuid } : { url: text(ref.Url) }), description });
      continue;
    }
    // 2.x: a URL, or a file of the archive (relative to the topic folder), which becomes a document.
    const referenced = text(ref.ReferencedDocument);
    if (bool(attribute(ref, 'isExternal'), false)) {
      result.document_references.push({ guid, url: referenced, description });
      continue;
    }
    const path = normalize(`${folder}/${referenced}`);
    const bytes = files.get(path);
    if (!bytes) throw new BcfFileError(`${markupName}: document reference ${i + 1} names ${JSON.stringify(referenced)}, which the file does not have`);
    let document = archive.documents.find((d) => d.filename === path);
    if (!document) {
      document = { guid: derivedGuid(`document/${path}`), filename: path.split('/').pop()!, bytes };
      archive.documents.push(document);
    }
    result.document_references.push({ guid, document_guid: document.guid, description });
  }

  for (const c of list(v3 ? (t.Comments as XmlNode | undefined)?.Comment : markup.Comment)) {
    const viewpoint = attribute(c.Viewpoint, 'Guid');
    result.comments.push({
      guid: guidOf(c, `${markupName}: a comment`),
      date: text(c.Date),
      author: text(c.Author),
      comment: text(c.Comment),
      viewpoint_guid: viewpoint?.toLowerCase(),
      modified_date: optional(c.ModifiedDate),
      modified_author: optional(c.ModifiedAuthor),
    });
  }

  for (const [i, v] of list(v3 ? (t.Viewpoints as XmlNode | undefined)?.ViewPoint : markup.Viewpoints).entries()) {
    const guid = guidOf(v, `${markupName}: viewpoint ${i + 1}`);
    // 2.0 files often name no file: the usual names then.
    const fileName = optional(v.Viewpoint) ?? (i === 0 ? 'viewpoint.bcfv' : `${guid}.bcfv`);
    const visinfo = inFolder.get(fileName);
    if (!visinfo) throw new BcfFileError(`${markupName}: viewpoint ${guid} names ${fileName}, which the topic folder does not have`);
    const snapshotName = optional(v.Snapshot) ?? (i === 0 && inFolder.has('snapshot.png') ? 'snapshot.png' : undefined);
    const snapshot = snapshotName ? inFolder.get(snapshotName) : undefined;
    if (snapshotName && !snapshot) throw new BcfFileError(`${markupName}: viewpoint ${guid} names the snapshot ${snapshotName}, which the topic folder does not have`);
    result.viewpoints.push({
      guid,
      index: v.Index !== undefined && text(v.Index) !== '' ? number(v.Index, `${markupName}: viewpoint Index`) : undefined,
      viewpoint: readVisinfo(decoder.decode(visinfo).replace(/^\uFEFF/, ''), version, `${folder}/${fileName}`, inFolder),
      snapshot: snapshot ? { type: /\.jpe?g$/i.test(snapshotName!) ? 'jpg' : 'png', bytes: snapshot } : undefined,
    });
  }
  return result;
}

/** A guid for what a 2.x file leaves without one, the same each time the file is read (so an import of it twice clashes, as it should). */
function derivedGuid(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** `a/b/../c` -> `a/c`. */
function normalize(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part && part !== '.') parts.push(part);
  }
  return parts.join('/');
}
