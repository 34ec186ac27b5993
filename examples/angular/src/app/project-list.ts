import { Component, input, output } from '@angular/core';
import type { Project } from '../../../shared/platform-client';

/** The user's projects, one button each. */
@Component({
  selector: 'app-project-list',
  template: `
    <h2>Projects</h2>
    <ul id="projects">
      @for (project of projects(); track project.id) {
        <li><button type="button" [attr.data-project-id]="project.id" (click)="opened.emit(project)">{{ project.name }}</button></li>
      } @empty {
        <li>No projects yet.</li>
      }
    </ul>
  `,
})
export class ProjectList {
  readonly projects = input.required<Project[]>();
  readonly opened = output<Project>();
}
