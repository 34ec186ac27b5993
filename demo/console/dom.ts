/**
 * The console's DOM helpers: find an element by id, make elements whose text is set
 * with textContent (every name, comment and message from the API or a model is untrusted
 * text and never goes through innerHTML), and the page's one alert line for errors.
 */

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The console's page has no #${id}`);
  return element as T;
}

/** A new element with a class, text (as textContent) and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: { className?: string; text?: string; title?: string; attrs?: Record<string, string> } = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (options.className) element.className = options.className;
  if (options.text !== undefined) element.textContent = options.text;
  if (options.title !== undefined) element.title = options.title;
  for (const [name, value] of Object.entries(options.attrs ?? {})) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/** An <option> with a value and a text (the value when none is given). */
export function option(value: string, text = value): HTMLOptionElement {
  const o = el('option', { text });
  o.value = value;
  return o;
}

/** A select's options: the values, after an optional first one (its label, value ''). */
export function fillSelect(select: HTMLSelectElement, values: string[], empty?: string): void {
  const options = values.map((value) => option(value));
  if (empty !== undefined) options.unshift(option('', empty));
  select.replaceChildren(...options);
}

/** A small button (`type="button"`, with more attributes) that calls `onClick` when clicked. */
export function smallButton(text: string, onClick: () => void, attrs: Record<string, string> = {}): HTMLButtonElement {
  const b = el('button', { className: 'small', text, attrs: { type: 'button', ...attrs } });
  b.addEventListener('click', onClick);
  return b;
}

/** Saves a blob as a download named `filename`: a blob URL and an <a download>, the URL revoked a minute later. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

const alertBox = () => byId('alert');

/** Shows an error (or a notice) to the user in the alert line under the header. */
export function showAlert(message: string, kind: 'error' | 'notice' = 'error'): void {
  byId('alert-text').textContent = message;
  alertBox().dataset.kind = kind;
  alertBox().hidden = false;
}

export function clearAlert(): void {
  alertBox().hidden = true;
  byId('alert-text').textContent = '';
}

/** The message of anything thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Runs an action of the user; a failure goes to the alert line instead of the console log. */
export async function attempt(label: string, work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    showAlert(`${label}: ${messageOf(error)}`);
  }
}

/** `12.3 MB` */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} kB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}
