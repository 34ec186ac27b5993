-- Issue tracking (seed 001, the BCF API): issue boards inside platform projects, their
-- extensions, topics, comments, viewpoints, documents and topic events. Guids are UUIDs
-- as clients send them (lower case), unique within a board; a BCF file imported into two
-- boards keeps its guids in both.

CREATE TABLE bcf_boards (
  id uuid PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name text NOT NULL,
  archived boolean NOT NULL DEFAULT false,
  -- platform_issue_number of the board's next topic
  next_issue integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bcf_boards_project ON bcf_boards (project_id);

-- The values of a board's extensions, kind by kind, in their order. Statuses carry their
-- colour and type (open, closed, candidate), types their colour. Unlinked entries exist
-- when a BCF file brought a value the board lacked; linking merges one into a linked entry.
-- Users are the platform project's members; only unlinked users are rows here.
CREATE TABLE bcf_extension_values (
  board_id uuid NOT NULL REFERENCES bcf_boards(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('status', 'type', 'user', 'label', 'priority', 'stage', 'snippet_type')),
  name text NOT NULL,
  color text,
  status_type text CHECK (status_type IN ('open', 'closed', 'candidate')),
  unlinked boolean NOT NULL DEFAULT false,
  position integer NOT NULL,
  PRIMARY KEY (board_id, kind, name)
);

CREATE TABLE bcf_topics (
  board_id uuid NOT NULL REFERENCES bcf_boards(id) ON DELETE CASCADE,
  guid uuid NOT NULL,
  issue_number integer NOT NULL,
  topic_type text,
  topic_status text,
  reference_links jsonb NOT NULL DEFAULT '[]',
  title text NOT NULL,
  index integer,
  labels text[] NOT NULL DEFAULT '{}',
  creation_date timestamptz NOT NULL,
  creation_author text NOT NULL,
  modified_date timestamptz,
  modified_author text,
  assigned_to text,
  description text,
  due_date timestamptz,
  stage text,
  priority text,
  bim_snippet jsonb,
  requester jsonb,
  imported_by text,
  imported_at timestamptz,
  PRIMARY KEY (board_id, guid),
  UNIQUE (board_id, issue_number)
);
CREATE INDEX bcf_topics_created ON bcf_topics (board_id, creation_date);

CREATE TABLE bcf_topic_events (
  id bigserial PRIMARY KEY,
  board_id uuid NOT NULL,
  topic_guid uuid NOT NULL,
  date timestamptz NOT NULL,
  author text NOT NULL,
  actions jsonb NOT NULL,
  FOREIGN KEY (board_id, topic_guid) REFERENCES bcf_topics(board_id, guid) ON DELETE CASCADE
);
CREATE INDEX bcf_topic_events_topic ON bcf_topic_events (board_id, topic_guid, id);

CREATE TABLE bcf_viewpoints (
  board_id uuid NOT NULL,
  guid uuid NOT NULL,
  topic_guid uuid NOT NULL,
  index integer,
  -- cameras, lines, clipping planes, bitmaps (with their guids) and components, as sent
  data jsonb NOT NULL,
  snapshot_type text CHECK (snapshot_type IN ('png', 'jpg')),
  snapshot_key text,
  -- viewpoint model references (addition): [{modelRef, revisionRef}]
  models jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (board_id, guid),
  FOREIGN KEY (board_id, topic_guid) REFERENCES bcf_topics(board_id, guid) ON DELETE CASCADE
);
CREATE INDEX bcf_viewpoints_topic ON bcf_viewpoints (board_id, topic_guid);

CREATE TABLE bcf_comments (
  board_id uuid NOT NULL,
  guid uuid NOT NULL,
  topic_guid uuid NOT NULL,
  date timestamptz NOT NULL,
  author text NOT NULL,
  comment text NOT NULL,
  viewpoint_guid uuid,
  reply_to_comment_guid uuid,
  modified_date timestamptz,
  modified_author text,
  PRIMARY KEY (board_id, guid),
  FOREIGN KEY (board_id, topic_guid) REFERENCES bcf_topics(board_id, guid) ON DELETE CASCADE
);
CREATE INDEX bcf_comments_topic ON bcf_comments (board_id, topic_guid, date);

CREATE TABLE bcf_documents (
  board_id uuid NOT NULL REFERENCES bcf_boards(id) ON DELETE CASCADE,
  guid uuid NOT NULL,
  filename text NOT NULL,
  description text,
  blob_key text NOT NULL,
  size bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (board_id, guid)
);

CREATE TABLE bcf_document_references (
  board_id uuid NOT NULL,
  guid uuid NOT NULL,
  topic_guid uuid NOT NULL,
  document_guid uuid,
  url text,
  description text,
  PRIMARY KEY (board_id, guid),
  FOREIGN KEY (board_id, topic_guid) REFERENCES bcf_topics(board_id, guid) ON DELETE CASCADE,
  CHECK ((document_guid IS NULL) <> (url IS NULL))
);

-- Related topics (3.0): pairs within a board.
CREATE TABLE bcf_related_topics (
  board_id uuid NOT NULL,
  topic_guid uuid NOT NULL,
  related_guid uuid NOT NULL,
  PRIMARY KEY (board_id, topic_guid, related_guid),
  FOREIGN KEY (board_id, topic_guid) REFERENCES bcf_topics(board_id, guid) ON DELETE CASCADE
);
