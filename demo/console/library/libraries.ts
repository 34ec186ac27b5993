/**
 * Project settings → document libraries (docs/V2.md, "Document libraries and
 * collections"): the project's libraries (a new one: administrators), the chosen
 * library's items (a new one), and the chosen item's revisions, newest first: upload a new
 * revision (file picker, with progress) and download one (fetched with the token, saved
 * from a blob link: a token never goes into a URL).
 */
import type { Project } from '../api.js';
import { byId, el, formatBytes, saveBlob } from '../dom.js';
import { act, notice, type Tab } from '../settings/settings-dialog.js';
import {
  createLibrary, createLibraryItem, downloadFile, listFiles, listLibraries, listLibraryItems, uploadFile,
  type Library, type LibraryFile, type LibraryItem,
} from '../v2-api.js';

function createForm(id: string, placeholder: string, submit: (name: string) => Promise<void>): HTMLFormElement {
  const form = el('form', { className: 'create', attrs: { id } },
    el('input', { attrs: { name: 'name', required: '', maxlength: '255', placeholder, 'aria-label': placeholder } }),
    el('button', { text: 'Create', attrs: { type: 'submit' } }));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const name = String(new FormData(form).get('name')).trim();
    void act(async () => {
      await submit(name);
      form.reset();
    });
  });
  return form;
}

export class LibrariesTab implements Tab {
  private project?: Project;
  private library?: Library;
  private item?: LibraryItem;
  private readonly root = byId('tab-libraries');
  private readonly libraries = el('ul', { className: 'list', attrs: { id: 'libraries' } });
  private readonly items = el('ul', { className: 'list', attrs: { id: 'library-items' } });
  private readonly files = el('ol', { className: 'list files', attrs: { id: 'library-files' } });
  private readonly itemsColumn: HTMLElement;
  private readonly filesColumn: HTMLElement;
  private readonly progress = el('progress', { attrs: { id: 'library-upload-progress', max: '1', value: '0' } });
  private readonly fileInput = el('input', { attrs: { type: 'file', id: 'library-upload' } });

  constructor() {
    this.itemsColumn = el('div', {}, el('h3', { text: 'Items' }), this.items,
      createForm('new-library-item', 'New item name', async (name) => {
        this.item = await createLibraryItem(this.project!.id, this.library!.id, name);
        await this.loadItems();
      }));
    this.fileInput.addEventListener('change', () => {
      const file = this.fileInput.files?.[0];
      if (file) void act(() => this.upload(file));
    });
    this.progress.hidden = true;
    this.filesColumn = el('div', {}, el('h3', { text: 'Revisions' }),
      el('div', { className: 'form-row' }, el('label', { className: 'file-button' }, 'Upload a new revision…', this.fileInput), this.progress),
      this.files);
    this.root.append(el('div', { className: 'settings-columns three' },
      el('div', {}, el('h3', { text: 'Libraries' }), this.libraries,
        createForm('new-library', 'New library name', async (name) => {
          this.library = await createLibrary(this.project!.id, name);
          this.item = undefined;
          await this.load();
        })),
      this.itemsColumn, this.filesColumn));
  }

  async open(project: Project): Promise<void> {
    if (this.project?.id !== project.id) {
      this.library = undefined;
      this.item = undefined;
    }
    this.project = project;
    await this.load();
  }

  private async load(): Promise<void> {
    const libraries = await listLibraries(this.project!.id);
    this.libraries.replaceChildren(...libraries.map((library) => this.row(library.id, library.name, library.name, library.id === this.library?.id, async () => {
      this.library = library;
      this.item = undefined;
      await this.load();
    })));
    if (libraries.length === 0) this.libraries.append(el('li', { className: 'empty', text: 'No libraries yet.' }));
    this.itemsColumn.hidden = !this.library;
    await this.loadItems();
  }

  private async loadItems(): Promise<void> {
    this.filesColumn.hidden = !this.item;
    if (!this.library) return;
    const items = await listLibraryItems(this.project!.id, this.library.id);
    this.items.replaceChildren(...items.map((item) => this.row(item.id, item.name, `${item.name} (r${item.latestRevision})`, item.id === this.item?.id, async () => {
      this.item = item;
      await this.loadItems();
    })));
    if (items.length === 0) this.items.append(el('li', { className: 'empty', text: 'No items yet.' }));
    if (this.item) await this.loadFiles();
  }

  private async loadFiles(): Promise<void> {
    const { project, library, item } = this;
    const files = await listFiles(project!.id, library!.id, item!.id);
    this.files.replaceChildren(...files.map((file) => this.fileRow(file)));
    if (files.length === 0) this.files.append(el('li', { className: 'empty', text: 'No revisions yet: upload a file.' }));
  }

  private fileRow(file: LibraryFile): HTMLLIElement {
    const download = el('button', { className: 'small', text: 'download', attrs: { type: 'button', 'data-action': 'download' } });
    const { project, library, item } = this;
    download.addEventListener('click', () => void act(async () => {
      saveBlob(await downloadFile(project!.id, library!.id, item!.id, file.id), file.filename);
    }));
    return el('li', { className: 'file', attrs: { 'data-revision': String(file.revision), 'data-file': file.id } },
      el('span', { className: 'revision-id', text: `r${file.revision}` }),
      el('span', { className: 'comment', text: file.filename, title: file.filename }),
      el('span', { className: 'muted', text: `${formatBytes(file.size)}, ${new Date(file.createdAt).toLocaleString()}` }),
      download);
  }

  private async upload(file: File): Promise<void> {
    const { project, library, item } = this;
    this.progress.hidden = false;
    this.progress.value = 0;
    try {
      const stored = await uploadFile(project!.id, library!.id, item!.id, file, (sent, total) => { this.progress.value = total ? sent / total : 0; });
      notice(`${stored.filename} is revision ${stored.revision}`);
    } finally {
      this.progress.hidden = true;
      this.fileInput.value = '';
    }
    await this.loadItems();
  }

  private row(id: string, name: string, text: string, current: boolean, choose: () => Promise<void>): HTMLLIElement {
    const b = el('button', { className: 'item', text, title: text, attrs: { type: 'button' } });
    if (current) b.setAttribute('aria-current', 'true');
    b.addEventListener('click', () => void act(choose));
    return el('li', { attrs: { 'data-id': id, 'data-name': name } }, b);
  }
}
