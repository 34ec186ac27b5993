-- What real clients call besides the seeds' tables (docs/V2.md, "What clients call").

-- The sign-in page's session: the cookie holds a random token, stored here as its
-- SHA-256 (as access tokens are), so `prompt=none` and a returning user get a code at once.
CREATE TABLE oauth_sessions (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);
CREATE INDEX oauth_sessions_user ON oauth_sessions (user_id);

-- The applications a user has allowed (on the sign-in page): asked once per application.
CREATE TABLE oauth_consents (
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  client_id text NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  granted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, client_id)
);

-- A revision's picture (services/project-image.ts): an SVG drawn from its storey plans
-- the first time it is asked for, kept beside them. NULL: not drawn yet; '': the plans
-- draw nothing (no picture).
ALTER TABLE revisions ADD COLUMN image_key text;
