-- Public OAuth clients (RFC 6749, 2.1): applications that cannot keep a secret, such as
-- the console in the browser. They have no secret and must use PKCE.
ALTER TABLE oauth_clients ADD COLUMN public boolean NOT NULL DEFAULT false;
ALTER TABLE oauth_clients ALTER COLUMN secret_hash DROP NOT NULL;
