/**
 * Project settings → collections (docs/V2.md, "Collections"): the project's collections
 * with a few filters (finalized, visibility, name), a new one from chosen library items
 * (following each item's latest revision, or pinned at the revision it has now), and the
 * chosen collection: its items (item, revision, file), finalize, share until a date (the
 * public link shown) or end the link.
 */
import type { Project } from '../api.js';
import { byId, el, option, smallButton } from '../dom.js';
import { act, type Tab } from '../settings/settings-dialog.js';
import {
  createCollection, listCollectionItems, listCollections, listFiles, listLibraries, listLibraryItems, patchCollection,
  type Collection, type Library, type LibraryFile, type LibraryItem,
} from '../v2-api.js';

export class CollectionsTab implements Tab {
  private project?: Project;
  private chosen?: string;
  /** Every item of every library (with at least one file) of the project, for "new" and names. */
  private items: { library: Library; item: LibraryItem }[] = [];
  private readonly root = byId('tab-collections');
  private readonly finalized = el('select', { attrs: { id: 'collections-finalized', 'aria-label': 'Finalized' } }, option('', 'finalized or not'), option('true', 'finalized'), option('false', 'not finalized'));
  private readonly visibility = el('select', { attrs: { id: 'collections-visibility', 'aria-label': 'Visibility' } }, option('', 'any visibility'), option('private', 'private'), option('project-members', 'project members'));
  private readonly search = el('input', { attrs: { id: 'collections-search', type: 'search', placeholder: 'Name contains', 'aria-label': 'Name contains' } });
  private readonly list = el('ul', { className: 'list', attrs: { id: 'collections' } });
  private readonly choices = el('div', { className: 'choices', attrs: { id: 'collection-choices' } });
  private readonly detail = el('div', { className: 'collection-detail', attrs: { id: 'collection-detail' } });

  constructor() {
    for (const filter of [this.finalized, this.visibility]) filter.addEventListener('change', () => void act(() => this.load()));
    this.search.addEventListener('input', () => void act(() => this.load()));
    const form = el('form', { className: 'new-collection', attrs: { id: 'new-collection' } },
      el('input', { attrs: { name: 'name', required: '', maxlength: '255', placeholder: 'New collection name', 'aria-label': 'New collection name' } }),
      el('label', { className: 'check' }, el('input', { attrs: { type: 'checkbox', name: 'follow', checked: '' } }), ' follow the latest revisions'),
      this.choices,
      el('button', { text: 'Create', attrs: { type: 'submit' } }));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const data = new FormData(form);
      const follow = data.get('follow') === 'on';
      const chosen = data.getAll('item').map(String);
      void act(async () => {
        const items = chosen.map((id) => this.items.find((entry) => entry.item.id === id)!).map(({ item }) => ({
          libraryId: item.libraryId, libraryItemId: item.id, ...(follow ? {} : { fileId: item.latestFileId! }),
        }));
        const created = await createCollection(this.project!.id, { name: String(data.get('name')).trim(), items, followLatestRevision: follow });
        form.reset();
        this.chosen = created.id;
        await this.load();
      });
    });
    this.root.append(el('div', { className: 'settings-columns' },
      el('div', {}, el('h3', { text: 'Collections' }),
        el('div', { className: 'filters' }, this.finalized, this.visibility, this.search), this.list,
        el('h3', { text: 'New collection' }), form),
      this.detail));
  }

  async open(project: Project): Promise<void> {
    if (this.project?.id !== project.id) this.chosen = undefined;
    this.project = project;
    const libraries = await listLibraries(project.id);
    const items = await Promise.all(libraries.map(async (library) => (await listLibraryItems(project.id, library.id)).map((item) => ({ library, item }))));
    this.items = items.flat();
    const usable = this.items.filter(({ item }) => item.latestFileId);
    this.choices.replaceChildren(...usable.map(({ library, item }) => el('label', { className: 'check', attrs: { 'data-item': item.id } },
      el('input', { attrs: { type: 'checkbox', name: 'item', value: item.id } }), ` ${library.name} / ${item.name} (r${item.latestRevision})`)));
    if (usable.length === 0) this.choices.append(el('span', { className: 'muted', text: 'No library item has a file yet.' }));
    await this.load();
  }

  private async load(): Promise<void> {
    const collections = await listCollections(this.project!.id, { finalized: this.finalized.value, visibility: this.visibility.value, search: this.search.value.trim() });
    this.list.replaceChildren(...collections.map((collection) => {
      const b = el('button', { className: 'item', attrs: { type: 'button' } },
        el('span', { text: collection.name }),
        el('span', { className: 'muted', text: ` ${collection.finalized ? 'finalized' : 'draft'}, ${collection.visibility}${collection.shareUrl ? ', shared' : ''}` }));
      if (collection.id === this.chosen) b.setAttribute('aria-current', 'true');
      b.addEventListener('click', () => void act(async () => {
        this.chosen = collection.id;
        await this.load();
      }));
      return el('li', { attrs: { 'data-id': collection.id, 'data-name': collection.name } }, b);
    }));
    if (collections.length === 0) this.list.append(el('li', { className: 'empty', text: 'No collections match.' }));
    const chosen = collections.find((c) => c.id === this.chosen);
    if (chosen) await this.show(chosen);
    else this.detail.replaceChildren(el('p', { className: 'muted', text: 'Choose a collection to see its items.' }));
  }

  private async show(collection: Collection): Promise<void> {
    const project = this.project!;
    const items = await listCollectionItems(project.id, collection.id);
    // Each item's revisions, to name the file an item is at.
    const files = new Map<string, LibraryFile[]>();
    await Promise.all([...new Set(items.map((i) => `${i.libraryId}/${i.libraryItemId}`))].map(async (key) => {
      const [library, item] = key.split('/') as [string, string];
      files.set(item, await listFiles(project.id, library, item));
    }));
    const rows = items.map((entry) => {
      const item = this.items.find((i) => i.item.id === entry.libraryItemId)?.item;
      const file = files.get(entry.libraryItemId)?.find((f) => f.id === entry.fileId);
      return el('li', { attrs: { 'data-item': entry.libraryItemId, 'data-file': entry.fileId, 'data-revision': String(file?.revision ?? '') } },
        `${item?.name ?? entry.libraryItemId}: r${file?.revision ?? '?'} ${file?.filename ?? ''}`);
    });
    const expiry = el('input', { attrs: { type: 'date', id: 'share-expiry', 'aria-label': 'Shared until' } });
    expiry.value = (collection.shareExpiresAt ?? new Date(Date.now() + 7 * 86_400_000).toISOString()).slice(0, 10);
    const patch = (body: Parameters<typeof patchCollection>[2]) => act(async () => {
      await patchCollection(project.id, collection.id, body);
      await this.load();
    });
    const button = (text: string, id: string, work: () => Promise<void>) => smallButton(text, () => void work(), { id });
    const parts: HTMLElement[] = [
      el('h3', { text: collection.name }),
      el('p', { className: 'muted', attrs: { id: 'collection-state' }, text: `${collection.finalized ? 'Finalized' : 'Not finalized'}; ${collection.followLatestRevision ? 'follows the latest revisions' : 'pinned revisions'}; ${collection.visibility}` }),
      el('ul', { className: 'collection-items', attrs: { id: 'collection-items' } }, ...rows),
    ];
    if (!collection.finalized) parts.push(el('div', { className: 'form-row' }, button('Finalize', 'collection-finalize', () => patch({ finalized: true }))));
    parts.push(el('div', { className: 'form-row' },
      el('label', { className: 'check' }, 'Share until ', expiry),
      button(collection.shareUrl ? 'Move the expiry' : 'Share', 'collection-share', () => patch({ shareExpiresAt: expiry.value })),
      ...(collection.shareUrl ? [button('End the link', 'collection-unshare', () => patch({ shareExpiresAt: null }))] : [])));
    if (collection.shareUrl) {
      const link = el('a', { text: collection.shareUrl, attrs: { id: 'share-url', target: '_blank', rel: 'noopener' } });
      if (/^https?:\/\//.test(collection.shareUrl)) link.href = collection.shareUrl;
      parts.push(el('p', { className: 'share' }, 'Link: ', link, ` (until ${new Date(collection.shareExpiresAt!).toLocaleString()})`));
    } else if (collection.shareExpiresAt) {
      parts.push(el('p', { className: 'muted', text: `The link expired at ${new Date(collection.shareExpiresAt).toLocaleString()}` }));
    }
    this.detail.replaceChildren(...parts);
  }
}
