-- Document libraries of a project (v2, docs/V2.md "Document libraries and collections"):
-- libraries hold items, an item holds file revisions (numbered per item, bytes in blob
-- storage), and library item collections group items at a revision (or following the
-- latest). Ids are 32 hex digits (services/secrets.ts newId). Times are kept to the
-- millisecond, as the API writes them, so a createdAt read back filters exactly.

CREATE TABLE document_libraries (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  created_by text REFERENCES users(id) ON DELETE SET NULL
);
CREATE INDEX document_libraries_project ON document_libraries (project_id, created_at);

CREATE TABLE library_items (
  id text PRIMARY KEY,
  library_id text NOT NULL REFERENCES document_libraries(id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  -- revision number of the newest file (0: none yet) and its id
  last_revision integer NOT NULL DEFAULT 0,
  latest_file_id text,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  created_by text REFERENCES users(id) ON DELETE SET NULL
);
CREATE INDEX library_items_library ON library_items (library_id, created_at);

CREATE TABLE library_item_files (
  id text PRIMARY KEY,
  item_id text NOT NULL REFERENCES library_items(id) ON DELETE CASCADE,
  revision integer NOT NULL,
  filename text NOT NULL,
  size bigint NOT NULL,
  blob_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  created_by text REFERENCES users(id) ON DELETE SET NULL,
  UNIQUE (item_id, revision)
);

CREATE TABLE library_collections (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  finalized boolean NOT NULL DEFAULT false,
  follow_latest_revision boolean NOT NULL DEFAULT false,
  visibility text NOT NULL DEFAULT 'private' CHECK (visibility IN ('private', 'project-members')),
  -- the public link's token (it is shown again in the collection's shareUrl) and when it stops working
  share_token text UNIQUE,
  share_expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  created_by text REFERENCES users(id) ON DELETE SET NULL
);
CREATE INDEX library_collections_project ON library_collections (project_id, created_at);

CREATE TABLE library_collection_items (
  id text PRIMARY KEY,
  collection_id text NOT NULL REFERENCES library_collections(id) ON DELETE CASCADE,
  position integer NOT NULL,
  library_id text NOT NULL REFERENCES document_libraries(id) ON DELETE CASCADE,
  item_id text NOT NULL REFERENCES library_items(id) ON DELETE CASCADE,
  -- the file given (or the latest when created); answered as is unless the collection follows the latest
  file_id text NOT NULL REFERENCES library_item_files(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  created_by text REFERENCES users(id) ON DELETE SET NULL,
  UNIQUE (collection_id, item_id)
);
CREATE INDEX library_collection_items_item ON library_collection_items (item_id);

CREATE TABLE library_collection_followers (
  collection_id text NOT NULL REFERENCES library_collections(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (collection_id, user_id)
);
CREATE INDEX library_collection_followers_user ON library_collection_followers (user_id);
