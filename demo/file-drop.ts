/**
 * IFC files dropped anywhere on the page (the demo and the console): `hint` shows while
 * files are dragged over, a drop hands its .ifc files (or those `accept` matches: the
 * console also takes scans) to `drop`, or the names of what was dropped instead to
 * `notIfc`. Nothing happens while `active()` says no.
 */
export interface FileDrop {
  active?: () => boolean;
  /** Called as files are dragged over, before the hint shows (to set its text). */
  over?: () => void;
  drop: (ifcFiles: File[]) => void;
  notIfc: (names: string[]) => void;
  /** The file names taken (default: .ifc). */
  accept?: RegExp;
}

export function onIfcFileDrop(hint: HTMLElement, { active = () => true, over, drop, notIfc, accept = /\.ifc$/i }: FileDrop): void {
  const hasFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;
  document.addEventListener('dragover', (event) => {
    if (!hasFiles(event) || !active()) return;
    event.preventDefault();
    event.dataTransfer!.dropEffect = 'copy';
    over?.();
    hint.hidden = false;
  });
  document.addEventListener('dragleave', (event) => {
    if (event.relatedTarget === null) hint.hidden = true;
  });
  document.addEventListener('drop', (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    hint.hidden = true;
    if (!active()) return;
    const files = [...(event.dataTransfer?.files ?? [])];
    const ifcFiles = files.filter((file) => accept.test(file.name));
    if (ifcFiles.length) drop(ifcFiles);
    else notIfc(files.map((f) => f.name));
  });
}
