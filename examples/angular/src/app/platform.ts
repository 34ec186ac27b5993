import { Injectable } from '@angular/core';
import { PlatformClient } from '../../../shared/platform-client';

/** The platform client (examples/shared) as a service: one per app, signed in as this app's OAuth client. */
@Injectable({ providedIn: 'root' })
export class Platform extends PlatformClient {
  constructor() {
    super({ clientId: 'example-angular' });
  }
}
