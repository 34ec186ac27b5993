import { PlatformClient } from '../../shared/platform-client';

/** The platform, as this app's public OAuth client (registered by `npm start`). */
export const platform = new PlatformClient({ clientId: 'example-vue' });

/** An error's message, for the page. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
