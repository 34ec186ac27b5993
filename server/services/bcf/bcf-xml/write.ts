import { zipSync } from 'fflate';
import type { ArchiveExtensions, ArchiveTopic, BcfArchive } from './archive.js';
import { parseBcfDate } from '../versions.js';
import { writeVisinfo } from './visinfo.js';
import { buildXml, type XmlNode } from './xml.js';

/**
 * A BcfArchive as a BCF-XML file of version 2.1 or 3.0 (a zip), written so that every XML
 * file validates against buildingSMART's schemas of that version: elements in schema
 * order, dates as xs:dateTime, 3.0's non-empty strings never empty. Where a version
 * cannot hold a value, the file says the nearest thing it can (docs/BCF.md, "BCF files").
 */
export function writeBcf(archive: BcfArchive, version: '2.1' | '3.0'): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const put = (name: string, content: string | Uint8Array) => {
    files[name] = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  };
  put('bcf.version', buildXml('Version', version === '3.0' ? { $: { VersionId: '3.0' } } : { $: { VersionId: '2.1' }, DetailedVersion: '2.1' }));
  const project = archive.project ? { $: { ProjectId: archive.project.id }, Name: archive.project.name || undefined } : undefined;
  if (version === '3.0') {
    if (project) put('project.bcfp', buildXml('ProjectInfo', { Project: project }));
    put('extensions.xml', extensionsXml(archive.extensions));
    if (archive.documents.length) {
      put('documents.xml', buildXml('DocumentInfo', { Documents: { Document: archive.documents.map((d) => ({ $: { Guid: d.guid }, Filename: d.filename, Description: d.description || undefined })) } }));
      for (const d of archive.documents) put(`documents/${d.guid}`, d.bytes);
    }
  } else {
    put('project.bcfp', buildXml('ProjectExtension', { Project: project, ExtensionSchema: 'extensions.xsd' }));
    put('extensions.xsd', extensionsSchema(archive.extensions));
    // 2.1 keeps documents as files its topics name by path.
    for (const d of archive.documents) put(`documents/${d.guid}/${d.filename}`, d.bytes);
  }
  for (const topic of archive.topics) {
    const folder = topic.guid;
    const viewpoints = topic.viewpoints.map((v) => {
      const visinfo = writeVisinfo(v.guid, v.viewpoint, version);
      put(`${folder}/Viewpoint_${v.guid}.bcfv`, visinfo.xml);
      for (const [name, bytes] of visinfo.files) put(`${folder}/${name}`, bytes);
      if (v.snapshot) put(`${folder}/Snapshot_${v.guid}.${v.snapshot.type}`, v.snapshot.bytes);
      return { $: { Guid: v.guid }, Viewpoint: `Viewpoint_${v.guid}.bcfv`, Snapshot: v.snapshot ? `Snapshot_${v.guid}.${v.snapshot.type}` : undefined, Index: v.index === undefined ? undefined : String(v.index) };
    });
    put(`${folder}/markup.bcf`, markup(topic, viewpoints, archive, version));
  }
  return zipSync(files, { level: 6 });
}

/** xs:dateTime (the API's `+0000` is not one). */
const dateTime = (value: string | undefined) => (value ? parseBcfDate(value).toISOString() : undefined);
/** What 3.0 gets where it requires a value the topic does not have (a type, a status, an author). */
export const UNKNOWN = 'Unknown';
/** 3.0 allows no empty strings where it allows a value. */
const nonEmpty = (value: string | undefined) => (value && value.trim() ? value : undefined);

function markup(topic: ArchiveTopic, viewpoints: XmlNode[], archive: BcfArchive, version: '2.1' | '3.0'): string {
  const v3 = version === '3.0';
  const comments = topic.comments.map((c) => ({
    $: { Guid: c.guid },
    Date: dateTime(c.date),
    Author: v3 ? (nonEmpty(c.author) ?? UNKNOWN) : c.author,
    Comment: v3 ? nonEmpty(c.comment) : c.comment,
    Viewpoint: c.viewpoint_guid ? { $: { Guid: c.viewpoint_guid } } : undefined,
    ModifiedDate: dateTime(c.modified_date),
    ModifiedAuthor: nonEmpty(c.modified_author),
  }));
  const references = topic.document_references.map((r) => {
    if (v3) return { $: { Guid: r.guid }, DocumentGuid: r.document_guid, Url: r.document_guid ? undefined : r.url, Description: nonEmpty(r.description) };
    const document = archive.documents.find((d) => d.guid === r.document_guid);
    return {
      $: { Guid: r.guid, isExternal: String(!document) },
      ReferencedDocument: document ? `../documents/${document.guid}/${document.filename}` : r.url,
      Description: r.description || undefined,
    };
  });
  const s = topic.bim_snippet;
  const snippet = s ? { $: { SnippetType: s.snippet_type, [v3 ? 'IsExternal' : 'isExternal']: String(s.is_external) }, Reference: s.reference, ReferenceSchema: s.reference_schema } : undefined;
  const related = topic.related_topics.map((guid) => ({ $: { Guid: guid } }));
  const body: XmlNode = {
    $: {
      Guid: topic.guid,
      ...(v3 && topic.server_assigned_id ? { ServerAssignedId: topic.server_assigned_id } : {}),
      TopicType: topic.topic_type ?? (v3 ? UNKNOWN : undefined),
      TopicStatus: topic.topic_status ?? (v3 ? UNKNOWN : undefined),
    },
    ...(v3 ? { ReferenceLinks: topic.reference_links.length ? { ReferenceLink: topic.reference_links } : undefined } : { ReferenceLink: topic.reference_links.length ? topic.reference_links : undefined }),
    Title: topic.title,
    Priority: nonEmpty(topic.priority),
    Index: topic.index === undefined ? undefined : String(topic.index),
    Labels: topic.labels.length ? (v3 ? { Label: topic.labels } : topic.labels) : undefined,
    CreationDate: dateTime(topic.creation_date),
    CreationAuthor: v3 ? (nonEmpty(topic.creation_author) ?? UNKNOWN) : topic.creation_author,
    ModifiedDate: dateTime(topic.modified_date),
    ModifiedAuthor: nonEmpty(topic.modified_author),
    DueDate: dateTime(topic.due_date),
    AssignedTo: nonEmpty(topic.assigned_to),
    Stage: nonEmpty(topic.stage),
    Description: nonEmpty(topic.description),
    BimSnippet: snippet,
    ...(v3
      ? {
          DocumentReferences: references.length ? { DocumentReference: references } : undefined,
          RelatedTopics: related.length ? { RelatedTopic: related } : undefined,
          Comments: comments.length ? { Comment: comments } : undefined,
          Viewpoints: viewpoints.length ? { ViewPoint: viewpoints } : undefined,
        }
      : { DocumentReference: references.length ? references : undefined, RelatedTopic: related.length ? related : undefined }),
  };
  return buildXml('Markup', v3 ? { Topic: body } : { Topic: body, Comment: comments.length ? comments : undefined, Viewpoints: viewpoints.length ? viewpoints : undefined });
}

function extensionsXml(e: ArchiveExtensions): string {
  const group = (values: string[], item: string) => (values.length ? { [item]: values } : undefined);
  return buildXml('Extensions', {
    TopicTypes: group(e.topic_type, 'TopicType'),
    TopicStatuses: group(e.topic_status, 'TopicStatus'),
    Priorities: group(e.priority, 'Priority'),
    TopicLabels: group(e.topic_label, 'TopicLabel'),
    Users: group(e.users, 'User'),
    SnippetTypes: group(e.snippet_type, 'SnippetType'),
    Stages: group(e.stage, 'Stage'),
  });
}

/** 2.1's extensions: a schema that redefines markup.xsd's value types as enumerations. */
function extensionsSchema(e: ArchiveExtensions): string {
  const types: [string, string[]][] = [['TopicType', e.topic_type], ['TopicStatus', e.topic_status], ['TopicLabel', e.topic_label], ['SnippetType', e.snippet_type], ['Priority', e.priority], ['UserIdType', e.users], ['Stage', e.stage]];
  return buildXml('xs:schema', {
    $: { 'xmlns:xs': 'http://www.w3.org/2001/XMLSchema' },
    'xs:redefine': {
      $: { schemaLocation: 'markup.xsd' },
      'xs:simpleType': types.filter(([, values]) => values.length).map(([name, values]) => ({ $: { name }, 'xs:restriction': { $: { base: name }, 'xs:enumeration': values.map((value) => ({ $: { value } })) } })),
    },
  });
}
