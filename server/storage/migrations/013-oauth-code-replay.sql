-- A redeemed authorization code is kept, marked used, until it expires: a second use is
-- recognised as a replay, and the tokens issued from the first (and refreshed from them,
-- which inherit code_hash) are revoked (RFC 6749, 4.1.2). services/oauth-model.ts.
ALTER TABLE oauth_codes ADD COLUMN used_at timestamptz;
ALTER TABLE oauth_tokens ADD COLUMN code_hash text;
CREATE INDEX oauth_tokens_code_hash ON oauth_tokens (code_hash);
