-- Users, OAuth applications and tokens, projects, models, imports, revisions, products, jobs.
-- Secrets, passwords and tokens are stored hashed (services/secrets.ts), never as sent.

CREATE TABLE users (
  id text PRIMARY KEY,
  email text NOT NULL UNIQUE,
  name text NOT NULL,
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE oauth_clients (
  id text PRIMARY KEY,
  name text NOT NULL,
  secret_hash text NOT NULL,
  redirect_uri text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE oauth_codes (
  code_hash text PRIMARY KEY,
  client_id text NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  redirect_uri text NOT NULL,
  scope text,
  code_challenge text,
  code_challenge_method text,
  expires_at timestamptz NOT NULL
);

CREATE TABLE oauth_tokens (
  access_hash text PRIMARY KEY,
  refresh_hash text UNIQUE,
  client_id text NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  scope text,
  access_expires_at timestamptz NOT NULL,
  refresh_expires_at timestamptz
);

CREATE TABLE projects (
  id text PRIMARY KEY,
  name text NOT NULL,
  created_by text REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE project_members (
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('admin', 'member')),
  PRIMARY KEY (project_id, user_id)
);
CREATE INDEX project_members_user ON project_members (user_id);

CREATE TABLE models (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name text NOT NULL,
  last_revision integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX models_project ON models (project_id);

-- objectIdBase = n * 2^32, one n per import: object ids never collide across revisions.
CREATE SEQUENCE object_id_bases START 1;

CREATE TABLE imports (
  token text PRIMARY KEY,
  model_id text NOT NULL REFERENCES models(id) ON DELETE CASCADE,
  user_id text REFERENCES users(id) ON DELETE SET NULL,
  file_name text NOT NULL,
  comment text NOT NULL,
  callback_uri text,
  blob_key text NOT NULL,
  size bigint NOT NULL,
  object_id_base bigint NOT NULL,
  result text NOT NULL CHECK (result IN ('running', 'success', 'error')),
  error text,
  revision_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX imports_model ON imports (model_id);

CREATE TABLE revisions (
  model_id text NOT NULL REFERENCES models(id) ON DELETE CASCADE,
  id integer NOT NULL,
  comment text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  object_id_base bigint NOT NULL,
  file_name text NOT NULL,
  blob_key text NOT NULL,
  size bigint NOT NULL,
  schema text NOT NULL,
  product_count integer NOT NULL,
  PRIMARY KEY (model_id, id)
);

-- Products of a revision; object_id = the revision's object_id_base + express id; seq =
-- 1, 2, ... in object_id order, so a page is a range of seq read from the index, however
-- deep it is (services/products.ts).
CREATE TABLE products (
  model_id text NOT NULL,
  revision_id integer NOT NULL,
  object_id bigint NOT NULL,
  seq integer NOT NULL,
  parent bigint NOT NULL,
  global_id text NOT NULL,
  type text NOT NULL,
  name text NOT NULL,
  description text,
  attributes jsonb NOT NULL,
  defined_by bigint[] NOT NULL,
  PRIMARY KEY (model_id, revision_id, object_id),
  FOREIGN KEY (model_id, revision_id) REFERENCES revisions(model_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX products_seq ON products (model_id, revision_id, seq);
CREATE INDEX products_type ON products (model_id, revision_id, lower(type));
CREATE INDEX products_global_id ON products (global_id);

-- Property sets, quantity sets and type objects, each once per revision (Entity values of definedBy).
CREATE TABLE definitions (
  model_id text NOT NULL,
  revision_id integer NOT NULL,
  object_id bigint NOT NULL,
  value jsonb NOT NULL,
  PRIMARY KEY (model_id, revision_id, object_id),
  FOREIGN KEY (model_id, revision_id) REFERENCES revisions(model_id, id) ON DELETE CASCADE
);

-- Tokens of the viewers' data URLs (v2 viewer3d/viewer2d, beta viewer2d access).
CREATE TABLE viewer_tokens (
  token_hash text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('viewer3d', 'viewer2d')),
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  revisions jsonb NOT NULL,
  expires_at timestamptz NOT NULL
);

-- The job queue: taken with SELECT ... FOR UPDATE SKIP LOCKED, held by a lease.
CREATE TABLE jobs (
  id bigserial PRIMARY KEY,
  kind text NOT NULL,
  payload jsonb NOT NULL,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  lease_until timestamptz,
  worker text,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX jobs_waiting ON jobs (state, lease_until) WHERE state IN ('queued', 'running');
