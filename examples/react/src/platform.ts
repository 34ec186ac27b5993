import { PlatformClient } from '../../shared/platform-client';

export const platform = new PlatformClient({ clientId: 'example-react' });

/**
 * The answer of the sign-in page, traded for tokens once per page load: outside React,
 * because StrictMode runs effects twice and the code can be used only once.
 */
export const signInDone: Promise<boolean> = platform.completeSignIn();
