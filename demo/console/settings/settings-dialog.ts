/**
 * The project's settings (a dialog opened from the models panel): custom fields
 * (custom-fields.ts), document libraries (library/libraries.ts) and collections
 * (library/collections.ts), one tab each. Failures show in the dialog's own line with the
 * API's message (403 for a member who is not an administrator, 409 for a duplicate item).
 */
import type { Project } from '../api.js';
import { byId, messageOf } from '../dom.js';

export interface Tab { open(project: Project): Promise<void> }

const error = () => byId('settings-error');

/** Runs a step of the user's in the dialog; its failure shows in the dialog's line. */
export async function act(work: () => Promise<unknown>): Promise<void> {
  error().textContent = '';
  delete error().dataset.kind;
  try {
    await work();
  } catch (failure) {
    error().textContent = messageOf(failure);
  }
}

/** A notice in the dialog's line (not an error). */
export function notice(text: string): void {
  error().dataset.kind = 'notice';
  error().textContent = text;
}

/** @param closed told when the dialog closes (the issues panel reloads the fields). */
export function installSettings(project: () => Project | undefined, tabs: Record<string, Tab>, closed: () => void): void {
  const dialog = byId<HTMLDialogElement>('settings');
  let current = 'fields';
  const show = (name: string) => {
    current = name;
    for (const button of dialog.querySelectorAll<HTMLButtonElement>('[data-tab]')) button.setAttribute('aria-current', String(button.dataset.tab === name));
    for (const key of Object.keys(tabs)) byId(`tab-${key}`).hidden = key !== name;
    const chosen = project();
    if (chosen) void act(() => tabs[name]!.open(chosen));
  };
  byId('open-settings').addEventListener('click', () => {
    const chosen = project();
    if (!chosen) return;
    byId('settings-project').textContent = chosen.name;
    error().textContent = '';
    dialog.showModal();
    show(current);
  });
  for (const button of dialog.querySelectorAll<HTMLButtonElement>('[data-tab]')) button.addEventListener('click', () => show(button.dataset.tab!));
  byId('settings-close').addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', closed);
}
