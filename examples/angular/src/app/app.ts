import { Component, inject, signal, type OnInit } from '@angular/core';
import type { Project } from '../../../shared/platform-client';
import { Platform } from './platform';
import { ProjectList } from './project-list';
import { ProjectView } from './project-view';

/** Signs in, lists the user's projects and shows the one opened. */
@Component({
  selector: 'app-root',
  imports: [ProjectList, ProjectView],
  template: `
    <header>
      <h1>BIM viewers in Angular</h1>
      @if (signedIn()) {
        <button id="sign-out" type="button" (click)="signOut()">Sign out</button>
      } @else {
        <button id="sign-in" type="button" (click)="signIn()">Sign in</button>
      }
    </header>
    @if (error(); as message) {
      <p id="app-error" role="alert">{{ message }}</p>
    }
    @if (project(); as open) {
      <app-project-view [project]="open" (closed)="project.set(null)" (failed)="error.set($event)" />
    } @else if (signedIn()) {
      <app-project-list [projects]="projects()" (opened)="project.set($event)" />
    }
  `,
})
export class App implements OnInit {
  private readonly platform = inject(Platform);
  protected readonly signedIn = signal(this.platform.signedIn);
  protected readonly projects = signal<Project[]>([]);
  protected readonly project = signal<Project | null>(null);
  protected readonly error = signal<string | null>(null);

  async ngOnInit(): Promise<void> {
    try {
      // The page may be the platform's answer to a sign-in (?code=...).
      if (await this.platform.completeSignIn()) this.signedIn.set(true);
      if (this.signedIn()) this.projects.set(await this.platform.projects());
    } catch (error) {
      this.error.set((error as Error).message);
    }
  }

  protected signIn(): void {
    this.platform.signIn().catch((error: Error) => this.error.set(error.message));
  }

  protected signOut(): void {
    this.platform.signOut();
    this.signedIn.set(false);
    this.project.set(null);
    this.projects.set([]);
  }
}
