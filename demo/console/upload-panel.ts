/**
 * The upload part of the revisions panel: a file picker and dropping a file anywhere on
 * the page (an IFC, or a scan: E57, LAS, LAZ, which the platform processes into a point
 * cloud), the upload's progress bar (bytes sent), then the import's status as it moves
 * (running -> success, or error with the platform's reason). On success the revisions
 * are listed again.
 */
import type { Catalogue } from './catalogue.js';
import { byId, formatBytes, messageOf, showAlert } from './dom.js';
import { followImport, uploadIfc } from './upload.js';
import { onIfcFileDrop } from '../file-drop.js';

export function installUploads(catalogue: Catalogue): void {
  const picker = byId<HTMLInputElement>('upload-file');
  const comment = byId<HTMLInputElement>('upload-comment');
  const state = byId('upload-state');
  const name = byId('upload-name');
  const bar = byId<HTMLProgressElement>('upload-progress');
  const bytes = byId('upload-bytes');
  const status = byId('import-status');
  const dropHint = byId('drop-hint');
  let busy = false;

  const setStatus = (result: string, text: string) => {
    status.dataset.result = result;
    status.textContent = text;
  };

  async function upload(file: File): Promise<void> {
    const model = catalogue.model;
    if (!model) {
      showAlert('Choose a model (or create one) before uploading a file.');
      return;
    }
    if (busy) {
      showAlert('An upload is running: wait for it to finish.');
      return;
    }
    busy = true;
    state.hidden = false;
    name.textContent = `${file.name} → ${model.name}`;
    bar.max = Math.max(file.size, 1);
    bar.value = 0;
    bytes.textContent = `0 of ${formatBytes(file.size)}`;
    setStatus('uploading', 'Uploading…');
    try {
      const token = await uploadIfc(model.id, file, comment.value.trim(), ({ sent, total }) => {
        bar.max = Math.max(total, 1);
        bar.value = sent;
        bytes.textContent = `${formatBytes(sent)} of ${formatBytes(total)}`;
      });
      bar.value = bar.max;
      bytes.textContent = `${formatBytes(file.size)} sent`;
      comment.value = '';
      const final = await followImport(token, (s) => {
        if (s.result === 'running') setStatus('running', 'Processing on the platform (running)…');
      });
      if (final.result === 'success') {
        setStatus('success', `Imported: revision ${final.revision_id ?? ''} of ${model.name} (success).`);
        if (catalogue.model?.id === model.id) await catalogue.loadRevisions();
      } else {
        setStatus('error', `Import failed (error): ${final.error ?? 'no reason given'}`);
      }
    } catch (error) {
      setStatus('error', `Upload failed: ${messageOf(error)}`);
    } finally {
      busy = false;
      picker.value = '';
    }
  }

  picker.addEventListener('change', () => {
    const file = picker.files?.[0];
    if (file) void upload(file);
  });

  // Drag and drop anywhere on the page.
  onIfcFileDrop(dropHint, {
    active: () => !byId('signed-in').hidden,
    over: () => {
      byId('drop-text').textContent = catalogue.model ? `Drop an .ifc file or a scan (.e57, .las, .laz) to upload it to ${catalogue.model.name}` : 'Choose a model first';
    },
    drop: (files) => void upload(files[0]),
    notIfc: (names) => showAlert(`Not an .ifc file or a scan (.e57, .las, .laz): ${names.join(', ')}`),
    accept: /\.(ifc|e57|las|laz)$/i,
  });
}
