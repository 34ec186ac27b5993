/**
 * The console's entry: finishes a sign-in coming back from the platform, shows the
 * sign-in screen or the console, and wires the parts together (catalogue.ts: projects,
 * models, revisions; upload-panel.ts: uploads; viewers.ts: 3D and 2D; issues/: the
 * project's BCF issues beside the viewers, with the board's custom fields; settings/ and
 * library/: the project's settings dialog: custom fields, document libraries and
 * collections through the v2 API, v2-api.ts). The viewers (and
 * their IFC engine) load only once someone is signed in, so the sign-in screen is light.
 */
import { completeSignIn, isSignedIn, onSessionEnd, signOutOfPlatform, startSignIn } from './auth.js';
import { Catalogue } from './catalogue.js';
import { attempt, byId, clearAlert, messageOf, showAlert } from './dom.js';
import { IssuesPanel } from './issues/issues-panel.js';
import { installUploads } from './upload-panel.js';
import { CollectionsTab } from './library/collections.js';
import { LibrariesTab } from './library/libraries.js';
import { CustomFieldsTab } from './settings/custom-fields.js';
import { installSettings } from './settings/settings-dialog.js';
import type { Viewers } from './viewers.js';

let viewers: Promise<Viewers> | undefined;

function loadViewers(): Promise<Viewers> {
  viewers ??= import('./viewers.js').then(({ Viewers }) => {
    const loaded = new Viewers();
    // For poking at the viewers from the browser's devtools (and for the console's test).
    Object.assign(window, { viewer3d: loaded.viewer3d, viewer2d: loaded.viewer2d });
    return loaded;
  });
  return viewers;
}

const issues = new IssuesPanel();
const catalogue = new Catalogue(
  (project, model, revision) =>
    void attempt('Opening the revision failed', async () => {
      const loaded = await loadViewers();
      const opened = loaded.open(project, model, revision);
      issues.open(project, loaded, opened);
      await opened;
    }),
  (project) => void attempt('Opening the project failed', async () => (await loadViewers()).openProject(project)),
);
installUploads(catalogue);
installSettings(() => catalogue.project, { fields: new CustomFieldsTab(), libraries: new LibrariesTab(), collections: new CollectionsTab() }, () => issues.fieldsChanged());

function showSignedOut(message?: string): void {
  byId('signed-in').hidden = true;
  byId('sign-out').hidden = true;
  byId('signed-out').hidden = false;
  if (message) byId('signed-out-text').textContent = message;
}

async function showConsole(): Promise<void> {
  byId('signed-out').hidden = true;
  byId('signed-in').hidden = false;
  byId('sign-out').hidden = false;
  void attempt('Loading the viewers failed', loadViewers);
  await attempt('Loading the projects failed', () => catalogue.loadProjects());
}

byId('sign-in').addEventListener('click', () => void attempt('Signing in failed', startSignIn));
byId('sign-out').addEventListener('click', () => void signOutOfPlatform());
byId('alert-close').addEventListener('click', clearAlert);
onSessionEnd((reason) => showSignedOut(reason));

try {
  await completeSignIn();
} catch (error) {
  showAlert(messageOf(error));
}
if (isSignedIn()) await showConsole();
else showSignedOut();
