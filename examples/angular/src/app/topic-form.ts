import { Component, inject, input, signal } from '@angular/core';
import type { BimViewer3d } from 'bim-viewers';
import type { Topic } from '../../../shared/platform-client';
import { Platform } from './platform';

type Status = { state: 'created'; topic: Topic } | { state: 'error'; message: string };

/** Creates a BCF topic on the project with the 3D viewer's current view (and a snapshot) as its viewpoint. */
@Component({
  selector: 'app-topic-form',
  template: `
    <form id="topic-form" (submit)="create($event, title.value)">
      <label>New topic <input id="topic-title" #title required /></label>
      <button id="create-topic" type="submit" [disabled]="busy()">Create topic</button>
    </form>
    @if (status(); as status) {
      @if (status.state === 'created') {
        <p id="topic-status" data-state="created" [attr.data-guid]="status.topic.guid">Created "{{ status.topic.title }}".</p>
      } @else {
        <p id="topic-status" data-state="error">{{ status.message }}</p>
      }
    }
  `,
})
export class TopicForm {
  readonly projectId = input.required<string>();
  readonly viewer = input.required<BimViewer3d>();
  protected readonly busy = signal(false);
  protected readonly status = signal<Status | null>(null);
  private readonly platform = inject(Platform);

  protected async create(event: SubmitEvent, title: string): Promise<void> {
    event.preventDefault();
    this.busy.set(true);
    try {
      const viewpoint = await this.viewer().getBcfViewpoint({ snapshot: true });
      this.status.set({ state: 'created', topic: await this.platform.createTopic(this.projectId(), title, viewpoint) });
    } catch (error) {
      this.status.set({ state: 'error', message: (error as Error).message });
    } finally {
      this.busy.set(false);
    }
  }
}
