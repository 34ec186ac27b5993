/**
 * The sign-in and consent page of the authorization endpoint: plain HTML with one form,
 * no script (it works with script off), every text escaped. The OAuth parameters
 * travel in hidden fields, so the POST carries everything the GET had.
 */
import { escapeXml as escape } from '../../services/escape-xml.js';

export interface SignInPage {
  action: string;
  clientName: string;
  params: Record<string, string>;
  email?: string;
  message?: string;
}

export function signInPage({ action, clientName, params, email = '', message }: SignInPage): string {
  const hidden = Object.entries(params)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('\n      ');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Sign in: ${escape(clientName)}</title>
  <style>
    body { font: 16px/1.5 system-ui, sans-serif; background: #f4f5f7; margin: 0; display: grid; place-items: center; min-height: 100vh; }
    form { background: #fff; padding: 2rem; border-radius: 8px; box-shadow: 0 1px 4px #0002; width: min(22rem, 90vw); }
    h1 { font-size: 1.25rem; margin: 0 0 1rem; }
    label { display: block; margin: 0.75rem 0 0.25rem; }
    input[type=email], input[type=password] { width: 100%; box-sizing: border-box; padding: 0.5rem; font: inherit; }
    .buttons { display: flex; gap: 0.5rem; margin-top: 1.25rem; }
    button { flex: 1; padding: 0.6rem; font: inherit; cursor: pointer; }
    button[value=allow] { background: #1f6feb; color: #fff; border: 0; border-radius: 4px; }
    .message { color: #b42318; }
  </style>
</head>
<body>
  <form method="post" action="${escape(action)}">
    <h1>Sign in to allow <strong>${escape(clientName)}</strong> to use your projects</h1>
    ${message ? `<p class="message" role="alert">${escape(message)}</p>` : ''}
    <label for="email">E-mail</label>
    <input id="email" name="email" type="email" autocomplete="username" value="${escape(email)}" required>
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required>
    <div class="buttons">
      <button type="submit" name="decision" value="allow">Sign in and allow</button>
      <button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
    </div>
      ${hidden}
  </form>
</body>
</html>`;
}

/** A page for requests that cannot go back to the application (unknown client, wrong redirect_uri). */
export function errorPage(message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorization failed</title></head>
<body style="font: 16px system-ui, sans-serif; margin: 3rem"><h1>Authorization failed</h1><p>${escape(message)}</p></body></html>`;
}
