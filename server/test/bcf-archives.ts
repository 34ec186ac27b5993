import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { bimBcfFolder, bimBcfSetting } from '../../scripts/bim-models.mjs';
import type { BcfArchive } from '../services/bcf/bcf-xml/archive.js';
import { UNKNOWN } from '../services/bcf/bcf-xml/write.js';

/** buildingSMART's BCF material (BIM_BCF, default ../shared/bcf), read at run time. */
export function bcfFolder(): string {
  const folder = bimBcfFolder();
  if (!folder) throw new Error(`No BCF material at ${bimBcfSetting()} (set BIM_BCF; see ../shared/bcf/README.md)`);
  return folder;
}

/** Every test case file (.bcf, .bcfzip) of every version, by path. */
export function testCases(): string[] {
  const root = path.join(bcfFolder(), 'test-cases');
  const walk = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(path.join(dir, f)).isDirectory() ? walk(path.join(dir, f)) : /\.bcf(zip)?$/i.test(f) ? [path.join(dir, f)] : []));
  return walk(root).sort();
}

/** What a version keeps of an archive: dates as instants, 2.1's field of view within its bounds, 3.0's aspect ratio; document guids and file names as each version knows them. */
export function comparable(archive: BcfArchive, version: '2.1' | '3.0') {
  const instant = (d: string | undefined) => (d ? new Date(d).getTime() : undefined);
  const documents = new Map(archive.documents.map((d) => [d.guid, Buffer.from(d.bytes).toString('base64')]));
  return archive.topics.map((t) => ({
    ...t,
    server_assigned_id: version === '3.0' ? t.server_assigned_id : undefined,
    topic_type: t.topic_type ?? (version === '3.0' ? UNKNOWN : undefined),
    topic_status: t.topic_status ?? (version === '3.0' ? UNKNOWN : undefined),
    creation_author: t.creation_author || (version === '3.0' ? UNKNOWN : ''),
    creation_date: instant(t.creation_date),
    modified_date: instant(t.modified_date),
    due_date: instant(t.due_date),
    description: t.description?.trim() ? t.description : undefined,
    comments: t.comments.map((c) => ({ ...c, author: c.author || (version === '3.0' ? UNKNOWN : ''), date: instant(c.date), modified_date: instant(c.modified_date), comment: c.comment.trim() || (version === '3.0' ? '' : c.comment) })),
    document_references: t.document_references.map((r) => ({ guid: r.guid, description: r.description, url: r.url, document: r.document_guid ? documents.get(r.document_guid) : undefined })),
    viewpoints: t.viewpoints.map((v) => ({
      ...v,
      snapshot: v.snapshot && { type: v.snapshot.type, bytes: Buffer.from(v.snapshot.bytes).toString('base64') },
      // 2.1 requires a visibility: a viewpoint without components is written with everything visible.
      viewpoint: JSON.parse(JSON.stringify(version === '2.1' && !v.viewpoint.components ? { components: { visibility: { default_visibility: true, exceptions: [] } }, ...v.viewpoint } : v.viewpoint, (key, value) => {
        if (key === 'aspect_ratio') return undefined;
        if (key === 'field_of_view' && version === '2.1') return Math.min(60, Math.max(45, value));
        return value;
      })),
    })),
  }));
}

