/**
 * The left column: the user's projects, the models of the chosen project and the
 * revisions of the chosen model, each list with its create form (revisions are created
 * by uploads: upload-panel.ts; a scan's revision says so, with its points). Opening a
 * revision, or the whole project (the latest revision of every model, BIM and scans
 * together), is handed to the viewers.
 */
import { createModel, createProject, listModels, listProjects, listRevisions, type Model, type Project, type Revision } from './api.js';
import { attempt, byId, el } from './dom.js';

export type OpenRevision = (project: Project, model: Model, revision: Revision) => void;
export type OpenProject = (project: Project) => void;

export class Catalogue {
  project?: Project;
  model?: Model;
  private readonly projects = byId<HTMLUListElement>('projects');
  private readonly models = byId<HTMLUListElement>('models');
  private readonly revisions = byId<HTMLOListElement>('revisions');

  constructor(private readonly open: OpenRevision, openProject?: OpenProject) {
    byId('open-project').addEventListener('click', () => {
      if (this.project) openProject?.(this.project);
    });
    byId<HTMLFormElement>('new-project').addEventListener('submit', (event) => {
      event.preventDefault();
      const form = event.target as HTMLFormElement;
      void attempt('Creating the project failed', async () => {
        const project = await createProject(nameOf(form));
        form.reset();
        await this.loadProjects();
        await this.selectProject(project);
      });
    });
    byId<HTMLFormElement>('new-model').addEventListener('submit', (event) => {
      event.preventDefault();
      const form = event.target as HTMLFormElement;
      const project = this.project;
      if (!project) return;
      void attempt('Creating the model failed', async () => {
        const model = await createModel(project.id, nameOf(form));
        form.reset();
        await this.loadModels();
        await this.selectModel(model);
      });
    });
    byId('reload-projects').addEventListener('click', () => void attempt('Loading the projects failed', () => this.loadProjects()));
  }

  async loadProjects(): Promise<void> {
    const projects = await listProjects();
    this.projects.replaceChildren(...projects.map((p) => this.item(p, p.id === this.project?.id, () => this.selectProject(p))));
    if (projects.length === 0) this.projects.append(el('li', { className: 'empty', text: 'No projects yet: create one below.' }));
  }

  async selectProject(project: Project): Promise<void> {
    this.project = project;
    this.model = undefined;
    markCurrent(this.projects, project.id);
    byId('project-name').textContent = project.name;
    byId('models-panel').hidden = false;
    byId('revisions-panel').hidden = true;
    await this.loadModels();
  }

  async loadModels(): Promise<void> {
    if (!this.project) return;
    const models = await listModels(this.project.id);
    this.models.replaceChildren(...models.map((m) => this.item(m, m.id === this.model?.id, () => this.selectModel(m))));
    if (models.length === 0) this.models.append(el('li', { className: 'empty', text: 'No models yet: create one below.' }));
  }

  async selectModel(model: Model): Promise<void> {
    this.model = model;
    markCurrent(this.models, model.id);
    byId('model-name').textContent = model.name;
    byId('revisions-panel').hidden = false;
    await this.loadRevisions();
  }

  /** The revisions of the chosen model, newest first. */
  async loadRevisions(): Promise<void> {
    const project = this.project;
    const model = this.model;
    if (!project || !model) return;
    const revisions = await listRevisions(model.id);
    if (model !== this.model) return; // another model was chosen meanwhile
    this.revisions.replaceChildren(...[...revisions].reverse().map((revision) => {
      const openButton = el('button', { className: 'small', text: 'Open', title: 'Open in the 3D and 2D viewers' });
      openButton.type = 'button';
      openButton.addEventListener('click', () => this.open(project, model, revision));
      const when = new Date(Number(revision.timestamp));
      const time = el('time', { text: when.toLocaleString(), attrs: { datetime: when.toISOString() } });
      const scan = revision.model_type === 'point-cloud';
      const attrs: Record<string, string> = { 'data-revision': String(revision.id), 'data-model-type': scan ? 'point-cloud' : 'bim' };
      return el('li', { className: 'revision', attrs },
        el('span', { className: 'revision-id', text: `#${revision.id}` }),
        el('span', { className: 'comment', text: revision.comment || '(no comment)' }),
        time,
        ...(scan ? [el('span', { className: 'kind', text: `scan, ${(revision.point_count ?? 0).toLocaleString('en')} points`, title: 'A point cloud processed from a scan (E57, LAS, LAZ)' })] : []),
        openButton,
      );
    }));
    if (revisions.length === 0) this.revisions.append(el('li', { className: 'empty', text: 'No revisions yet: upload an IFC file or a scan.' }));
  }

  private item(entry: { id: string; name: string }, current: boolean, choose: () => Promise<void>): HTMLLIElement {
    const button = el('button', { className: 'item', text: entry.name, title: entry.name });
    button.type = 'button';
    if (current) button.setAttribute('aria-current', 'true');
    button.addEventListener('click', () => void attempt(`Opening ${entry.name} failed`, choose));
    return el('li', { attrs: { 'data-id': entry.id } }, button);
  }
}

function nameOf(form: HTMLFormElement): string {
  return String(new FormData(form).get('name') ?? '').trim();
}

function markCurrent(list: HTMLElement, id: string): void {
  for (const li of list.querySelectorAll<HTMLLIElement>('li[data-id]')) {
    const button = li.querySelector('button')!;
    if (li.dataset.id === id) button.setAttribute('aria-current', 'true');
    else button.removeAttribute('aria-current');
  }
}
