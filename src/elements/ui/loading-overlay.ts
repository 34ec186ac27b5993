import type { Translations } from './translations.js';

/**
 * The loading overlay: "Loading" and a progress bar while models stream
 * (`viewer.streamingprogress`), the `noModelsLoaded` text when the viewer is empty.
 * Texts are set as text (translations are untrusted).
 */
export class LoadingOverlay {
  readonly root: HTMLDivElement;
  private readonly label: HTMLDivElement;
  private readonly bar: HTMLDivElement;
  private readonly fill: HTMLDivElement;
  private progress = new Map<string, number>();
  state: 'hidden' | 'loading' | 'empty' = 'hidden';

  constructor(private readonly texts: () => Translations) {
    this.root = document.createElement('div');
    this.root.className = 'loading-overlay';
    this.root.setAttribute('part', 'loading-overlay');
    this.root.setAttribute('role', 'status');
    this.label = document.createElement('div');
    this.label.className = 'label';
    this.bar = document.createElement('div');
    this.bar.className = 'bar';
    this.bar.setAttribute('role', 'progressbar');
    this.bar.setAttribute('aria-valuemin', '0');
    this.bar.setAttribute('aria-valuemax', '100');
    this.fill = document.createElement('div');
    this.fill.className = 'fill';
    this.bar.appendChild(this.fill);
    this.root.append(this.label, this.bar);
    this.render();
  }

  /** One model's progress (0..1); done models drop out. */
  setProgress(modelId: string, value: number, done: boolean) {
    if (done) this.progress.delete(modelId);
    else this.progress.set(modelId, Math.max(0, Math.min(1, value)));
    this.state = this.progress.size ? 'loading' : 'hidden';
    this.render();
  }

  /** No load under way: show the empty text or nothing. */
  settle(empty: boolean) {
    this.progress.clear();
    this.state = empty ? 'empty' : 'hidden';
    this.render();
  }

  get percent(): number {
    if (!this.progress.size) return 0;
    let sum = 0;
    for (const v of this.progress.values()) sum += v;
    return Math.round((sum / this.progress.size) * 100);
  }

  render() {
    const t = this.texts();
    this.root.hidden = this.state === 'hidden';
    this.root.dataset.state = this.state;
    this.bar.hidden = this.state !== 'loading';
    if (this.state === 'loading') {
      const percent = this.percent;
      this.label.textContent = `${t.loading} ${percent}%`;
      this.fill.style.width = `${percent}%`;
      this.bar.setAttribute('aria-valuenow', String(percent));
    } else if (this.state === 'empty') {
      this.label.textContent = t.noModelsLoaded;
    } else {
      this.label.textContent = '';
    }
  }
}
