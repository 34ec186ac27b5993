/**
 * BCF files of the board shown: "Import BCF…" sends the picked .bcf/.bcfzip as the body of
 * POST .../import and says what came in (or the API's error: the import is all or
 * nothing); "Export" fetches .../export?version=3.0|2.1 with the token and saves the
 * answer through a blob URL and an <a download>, since a plain link could not carry the
 * token.
 */
import { byId, messageOf, saveBlob } from '../dom.js';
import { exportBcf, importBcf, type ImportSummary } from './bcf-api.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function summaryText(summary: ImportSummary): string {
  const counts = [plural(summary.topics, 'issue'), plural(summary.comments, 'comment'), plural(summary.viewpoints, 'viewpoint'), plural(summary.documents, 'document')];
  const added = Object.entries(summary.added ?? {}).filter(([, values]) => values.length).map(([kind, values]) => `${kind}: ${values.join(', ')}`);
  return `Imported ${counts.join(', ')}.${added.length ? ` New values on the board: ${added.join('; ')}.` : ''}`;
}

/**
 * @param board the board shown (undefined: none)
 * @param imported told after an import, to list the topics again
 */
export function installBcfFiles(board: () => { id: string; name: string } | undefined, imported: () => Promise<void>): void {
  const picker = byId<HTMLInputElement>('bcf-import');
  const version = byId<HTMLSelectElement>('bcf-export-version');
  const status = byId('bcf-files-status');
  const say = (result: 'running' | 'success' | 'error', text: string) => {
    status.dataset.result = result;
    status.textContent = text;
  };

  picker.addEventListener('change', () => {
    const file = picker.files?.[0];
    const shown = board();
    if (!file || !shown) return;
    say('running', `Importing ${file.name}…`);
    void (async () => {
      try {
        say('success', summaryText(await importBcf(shown.id, file)));
        await imported();
      } catch (error) {
        say('error', `${file.name} was not imported: ${messageOf(error)}`);
      } finally {
        picker.value = '';
      }
    })();
  });

  byId('bcf-export').addEventListener('click', () => {
    const shown = board();
    if (!shown) return;
    const fileVersion = version.value === '2.1' ? '2.1' : '3.0';
    say('running', 'Exporting…');
    void (async () => {
      try {
        const blob = await exportBcf(shown.id, fileVersion);
        saveBlob(blob, `${shown.name.replace(/[\\/:*?"<>|]+/g, '_') || 'issues'}.bcf`);
        say('success', `Exported ${shown.name} as BCF ${fileVersion}.`);
      } catch (error) {
        say('error', `Export failed: ${messageOf(error)}`);
      }
    })();
  });
}
